/**
 * Quests over real sockets: talking to NPCs, options gated by quest state, levels and held items, quest stages
 * moved by dialogue and by items held, hand-ins and rewards (items to the inventory or the bank, experience,
 * quest points) committed once — checked against the database.
 */
import assert from 'node:assert/strict';
import { emptyBank } from '../../src/game/bank.ts';
import { levelForXp } from '../../src/game/skills.ts';
import { ledger, request, rowsOf, stack, until, type Rows } from '../economy/support.ts';
import { json } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';
import {
  AT_ALDOUS, AT_DUNSTAN, AT_TAMSIN, TAMSIN, characterColumns, expectRefusal, expectStep, optionTexts, questPlayer, questRows,
  seedQuest, setLevels,
} from './support.ts';

const ADMIN_CODE = 'quest admin code';

function diff(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const d = (after.get(id) ?? 0) - (before.get(id) ?? 0);
    if (d !== 0) out[id] = d;
  }
  return out;
}

function itemsOf(rows: Rows): Array<[string, number]> {
  return [...ledger({ ...rows, bank: [], ground: [], deaths: [] })];
}

async function admin(client: JsonWsClient, line: string): Promise<void> {
  const reply = await request(client, 'player:chat', { message: line }, line.startsWith('/admin ') ? 'admin:granted' : 'admin:done');
  if (!reply.ok) throw new Error(`${line} was refused: ${reply.code}`);
}

describe('NPC dialogue and quests over a real socket @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ADMIN_CODE, WS_MESSAGES_PER_SECOND: '1000' });
  });
  after(async () => {
    await server.close();
  });

  it('The Lost Locket from the first talk to the rewards: items arrive, experience and quest points granted once', async () => {
    const { client, characterId, account } = await questPlayer(server, AT_TAMSIN, { inventory: [stack('coins', 10), stack('bread')] });
    const db = server.context.db;
    const initial = (await client.waitFor('quest:state')).data;
    assert.equal(initial.questPoints, 0);
    assert.deepEqual(initial.quests.map((q: { questId: string; status: string; stage: number }) => [q.questId, q.status, q.stage]), [
      ['lost_locket', 'not-started', 0], ['cold_forge', 'not-started', 0], ['rites_of_the_barrow', 'not-started', 0],
    ]);

    // Talk by the NPC's manifest id; options show only what this player may choose (index = place in the full list).
    const open = await expectStep(client, 'npc:talk', { npcId: 'old_tamsin' });
    assert.equal(open.type, 'dialogue:open');
    assert.deepEqual(open.data.npc, { id: TAMSIN, npcId: 'old_tamsin', name: 'Old Tamsin' });
    assert.equal(open.data.nodeId, 'greet');
    assert.deepEqual(open.data.options, [{ index: 0, text: 'Your locket?' }, { index: 1, text: 'Any fishing tips?' }, { index: 3, text: 'Goodbye.' }]);
    assert.equal(open.data.canContinue, false);
    const locket = await expectStep(client, 'dialogue:choose', { option: 0 });
    assert.deepEqual(optionTexts(locket), ["I'll get it back.", 'Sorry to hear that.']);
    const accepted = await expectStep(client, 'dialogue:choose', { option: 'accept' });
    assert.equal(accepted.data.nodeId, 'accept');
    assert.equal(accepted.data.canContinue, true);
    const started = await client.waitFor('quest:update', (d) => d.questId === 'lost_locket');
    assert.deepEqual([started.data.stage, started.data.status], [1, 'in-progress']);
    assert.match(started.data.description, /Recover the tarnished locket/);
    const [row] = await questRows(db, characterId);
    assert.deepEqual([row.quest_id, row.stage, row.completed_at], ['lost_locket', 1, null]);
    assert.ok(row.started_at);
    const ended = await expectStep(client, 'dialogue:continue');
    assert.deepEqual([ended.type, ended.data.reason], ['dialogue:closed', 'END']);

    // Started: the quest cannot be accepted again, and the return option waits for the locket.
    const again = await expectStep(client, 'npc:talk', { npcId: TAMSIN });
    assert.deepEqual(optionTexts(again), ['Your locket?', 'Any fishing tips?', 'Goodbye.']);
    assert.deepEqual(optionTexts(await expectStep(client, 'dialogue:choose', { option: 0 })), ['Sorry to hear that.']);
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 0 }), 'OPTION_UNAVAILABLE');
    assert.equal((await expectStep(client, 'dialogue:close')).data.reason, 'CLOSED');

    // Holding the locket completes stage 1 on the tick (an admin gives it here; goblins drop it in play).
    await admin(client, `/admin ${ADMIN_CODE}`);
    const stage2 = client.next('quest:update', (d) => d.questId === 'lost_locket' && d.stage === 2);
    await admin(client, '/give tarnished_locket 1');
    assert.equal((await stage2).data.status, 'in-progress');
    await until(async () => (await questRows(db, characterId))[0].stage === 2);

    const before = await rowsOf(db, characterId);
    const xpBefore = await characterColumns(db, characterId, ['fishing_xp_tenths', 'cooking_xp_tenths', 'quest_points']);
    const greet = await expectStep(client, 'npc:talk', { npcId: TAMSIN });
    assert.deepEqual(greet.data.options.map((o: { index: number }) => o.index), [0, 1, 2, 3]);
    const completed = client.next('quest:completed');
    const fishingXp = client.next('skill:xp', (d) => d.skill === 'fishing');
    const returned = await expectStep(client, 'dialogue:choose', { option: 2 });
    assert.equal(returned.data.nodeId, 'returned');
    const done = (await completed).data;
    assert.deepEqual(done, {
      questId: 'lost_locket', name: 'The Lost Locket', questPoints: 1,
      rewards: {
        questPoints: 1,
        items: [{ itemId: 'coins', quantity: 250, to: 'inventory' }, { itemId: 'fishing_bait', quantity: 50, to: 'inventory' }],
        xp: [{ skill: 'fishing', amount: 400 }, { skill: 'cooking', amount: 200 }],
      },
    });
    assert.deepEqual([(await fishingXp).data.amount, (await fishingXp).data.xp], [400, 400]);
    assert.equal((await client.waitFor('skill:xp', (d) => d.skill === 'cooking')).data.xp, 200);

    // Committed together: the locket handed in, the rewards in, experience and quest points stored at once.
    const after = await rowsOf(db, characterId);
    assert.deepEqual(diff(ledger(before), ledger(after)), { coins: 250, fishing_bait: 50, tarnished_locket: -1 });
    assert.deepEqual(await characterColumns(db, characterId, ['fishing_xp_tenths', 'cooking_xp_tenths', 'quest_points']), {
      fishing_xp_tenths: xpBefore.fishing_xp_tenths + 4000, cooking_xp_tenths: xpBefore.cooking_xp_tenths + 2000, quest_points: 1,
    });
    const [finished] = await questRows(db, characterId);
    assert.equal(finished.stage, 3);
    assert.ok(finished.completed_at);
    assert.deepEqual(itemsOf(after), [['bread', 1], ['coins', 260], ['fishing_bait', 50]]);

    // Completed: no option leads to the rewards again, so choosing it changes nothing.
    const later = await expectStep(client, 'dialogue:continue');
    assert.equal(later.data.reason, 'END');
    const once = await expectStep(client, 'npc:talk', { npcId: TAMSIN });
    assert.ok(!optionTexts(once).includes('I found your locket.'));
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 2 }), 'OPTION_UNAVAILABLE');
    assert.deepEqual(ledger(await rowsOf(db, characterId)), ledger(after));
    assert.equal((await characterColumns(db, characterId, ['quest_points'])).quest_points, 1);

    const state = await request(client, 'quest:get', {}, 'quest:state');
    assert.ok(state.ok);
    const journal = state.event.data;
    assert.equal(journal.questPoints, 1);
    assert.deepEqual(journal.quests[0].status, 'completed');
    assert.ok(journal.quests[0].startedAt && journal.quests[0].completedAt);

    // The REST journal tells the same.
    const response = await fetch(`${server.baseUrl}/api/player/quests?characterId=${characterId}`, { headers: { authorization: `Bearer ${account.token}` } });
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.deepEqual([body.characterId, body.questPoints, body.completed, body.total], [characterId, 1, 1, 3]);
    assert.deepEqual(body.quests.map((q: { questId: string; status: string; stage: number; finalStage: number }) => [q.questId, q.status, q.stage, q.finalStage]), [
      ['lost_locket', 'completed', 3, 3], ['cold_forge', 'not-started', 0, 2], ['rites_of_the_barrow', 'not-started', 0, 3],
    ]);
    assert.equal(body.quests[0].completedAt, journal.quests[0].completedAt);
    assert.equal(body.quests[1].startedAt, null);

    // Leaving saves the skill book: the reward experience, already stored, is not added a second time.
    client.send('world:leave');
    await client.waitFor('world:left');
    assert.deepEqual(await characterColumns(db, characterId, ['fishing_xp_tenths', 'cooking_xp_tenths', 'quest_points']), {
      fishing_xp_tenths: xpBefore.fishing_xp_tenths + 4000, cooking_xp_tenths: xpBefore.cooking_xp_tenths + 2000, quest_points: 1,
    });
    client.close();
  });

  it('The Cold Forge: offered only from mining 5; the bars option only with five bars, which it takes', async () => {
    const bars = (n: number) => Array.from({ length: n }, () => stack('bronze_bar'));
    const { client, characterId } = await questPlayer(server, AT_DUNSTAN, { inventory: [...bars(4), stack('coins', 5)] });
    const db = server.context.db;
    const greet = await expectStep(client, 'npc:talk', { npcId: 'dunstan' });
    assert.deepEqual(optionTexts(greet), ['Show me your wares.', 'You look troubled.', 'Goodbye.']);
    const troubled = await expectStep(client, 'dialogue:choose', { option: 1 });
    assert.deepEqual(optionTexts(troubled), ['Not now.'], 'mining 1: the quest is not offered');
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 0 }), 'OPTION_UNAVAILABLE');
    assert.deepEqual(await questRows(db, characterId), []);
    await expectStep(client, 'dialogue:close');

    await admin(client, `/admin ${ADMIN_CODE}`);
    await admin(client, '/setlevel mining 5');
    await expectStep(client, 'npc:talk', { npcId: 'dunstan' });
    assert.deepEqual(optionTexts(await expectStep(client, 'dialogue:choose', { option: 1 })), ["I'll do it.", 'Not now.']);
    await expectStep(client, 'dialogue:choose', { option: 0 });
    await client.waitFor('quest:update', (d) => d.questId === 'cold_forge' && d.stage === 1);

    // Four bars: the hand-in option stays hidden.
    const four = await expectStep(client, 'npc:talk', { npcId: 'dunstan' });
    assert.ok(!optionTexts(four).includes("I've brought the bronze bars."));
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 'forge_done' }), 'INVALID_OPTION');

    await admin(client, '/give bronze_bar 1');
    const before = await rowsOf(db, characterId);
    const five = await expectStep(client, 'npc:talk', { npcId: 'dunstan' });
    assert.deepEqual(five.data.options.map((o: { index: number }) => o.index), [0, 1, 2, 3]);
    const completed = client.next('quest:completed');
    await expectStep(client, 'dialogue:choose', { option: 2 });
    const done = (await completed).data;
    assert.deepEqual(done.rewards.items, [{ itemId: 'iron_pickaxe', quantity: 1, to: 'inventory' }]);
    assert.equal(done.questPoints, 1);
    const after = await rowsOf(db, characterId);
    assert.deepEqual(diff(ledger(before), ledger(after)), { bronze_bar: -5, iron_pickaxe: 1 });
    const columns = await characterColumns(db, characterId, ['smithing_xp_tenths', 'mining_xp_tenths', 'mining_level', 'quest_points']);
    // /setlevel mining 5 stored 388 experience; the reward adds 300 and the level follows (stored in tenths).
    assert.deepEqual(columns, { smithing_xp_tenths: 6000, mining_xp_tenths: 6880, mining_level: levelForXp(688), quest_points: 1 });
    assert.ok(levelForXp(688) > 5);
    client.close();
  });

  it('Rites of the Barrow: needs prayer 10, The Lost Locket and a quest point; rewards that do not fit go to the bank', async () => {
    const { client, characterId } = await questPlayer(server, AT_ALDOUS, {
      // 27 slots taken and the key arrives in the last: the hand-in frees one slot, the amulet takes it, the bones go to the bank.
      inventory: Array.from({ length: 27 }, () => stack('logs')), bank: emptyBank(),
    }, async (id) => {
      await seedQuest(server.context.db, id, 'lost_locket', 3, true);
      await server.context.db.em.fork().execute('update characters set quest_points = 1 where id = ?', [id]);
    });
    const db = server.context.db;
    const restless = async () => {
      await expectStep(client, 'npc:talk', { npcId: 'brother_aldous' });
      return optionTexts(await expectStep(client, 'dialogue:choose', { option: 0 }));
    };
    assert.deepEqual(await restless(), ['Not me.'], 'prayer 1: not offered');
    await admin(client, `/admin ${ADMIN_CODE}`);
    await admin(client, '/setlevel prayer 10');
    assert.deepEqual(await restless(), ["I'll face it.", 'Not me.']);
    await expectStep(client, 'dialogue:choose', { option: 0 });
    await client.waitFor('quest:update', (d) => d.questId === 'rites_of_the_barrow' && d.stage === 1);

    const stage2 = client.next('quest:update', (d) => d.questId === 'rites_of_the_barrow' && d.stage === 2);
    await admin(client, '/give barrow_key 1');
    await stage2;
    const before = await rowsOf(db, characterId);
    await expectStep(client, 'npc:talk', { npcId: 'brother_aldous' });
    const completed = client.next('quest:completed');
    await expectStep(client, 'dialogue:choose', { option: 'key' });
    const done = (await completed).data;
    assert.deepEqual(done.rewards.items, [
      { itemId: 'amulet_of_vigour', quantity: 1, to: 'inventory' }, { itemId: 'big_bones', quantity: 5, to: 'bank' },
    ]);
    assert.equal(done.questPoints, 3);
    const after = await rowsOf(db, characterId);
    assert.deepEqual(diff(ledger(before), ledger(after)), { amulet_of_vigour: 1, barrow_key: -1, big_bones: 5 });
    assert.deepEqual(after.bank.map((b) => [b.item_id, b.quantity]), [['big_bones', 5]]);
    assert.equal(after.inventory.length, 28);
    assert.deepEqual((await questRows(db, characterId)).map((r) => [r.quest_id, r.stage]), [['lost_locket', 3], ['rites_of_the_barrow', 3]]);
    client.close();
  });

  it('talking to a banker or a shopkeeper opens the bank or the store as bank:open and shop:open do', async () => {
    const { client } = await questPlayer(server, { x: 107, z: 86 }, { inventory: [stack('coins', 3)], bank: { tabs: [{ name: 'main', items: [{ itemId: 'bread', quantity: 4 }] }] } });
    await expectStep(client, 'npc:talk', { npcId: 'osric' });
    const bank = client.next('bank:state');
    const open = await expectStep(client, 'dialogue:choose', { option: 0 });
    assert.equal(open.data.nodeId, 'open');
    assert.deepEqual((await bank).data.tabs[0].items, [{ itemId: 'bread', quantity: 4 }]);
    client.close();

    const shopper = await questPlayer(server, { x: 89, z: 87 });
    await expectStep(shopper.client, 'npc:talk', { npcId: 'mirela' });
    const shop = shopper.client.next('shop:state');
    await expectStep(shopper.client, 'dialogue:choose', { option: 0 });
    assert.equal((await shop).data.storeId, 'brackenford_general_store');
    shopper.client.close();
  });
});
