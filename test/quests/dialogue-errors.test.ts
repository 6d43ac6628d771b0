/**
 * Bad dialogue input over a real socket: every refusal carries its code and changes nothing (no quest row, the
 * dialogue stays on its node); walking away, a trade and talking to someone else close an open dialogue.
 */
import assert from 'node:assert/strict';
import { request, seededPlayer, stack } from '../economy/support.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { openTrade, trader } from '../trade/support.ts';
import { AT_TAMSIN, TAMSIN, expectRefusal, expectStep, optionTexts, questPlayer, questRows } from './support.ts';

describe('dialogue refusals and closing @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ WS_MESSAGES_PER_SECOND: '1000' });
  });
  after(async () => {
    await server.close();
  });

  it('refuses unknown NPCs, NPCs too far away or without dialogue, and choices without an open dialogue', async () => {
    const { client, characterId } = await questPlayer(server, { x: 91, z: 60 });
    assert.equal(await expectRefusal(client, 'npc:talk', { npcId: 'nobody' }), 'UNKNOWN_NPC');
    assert.equal(await expectRefusal(client, 'npc:talk', { npcId: 'npc-999' }), 'UNKNOWN_NPC');
    assert.equal(await expectRefusal(client, 'npc:talk', { npcId: 'old_tamsin' }), 'NOT_NEAR_NPC');
    assert.equal(await expectRefusal(client, 'npc:talk', { npcId: TAMSIN }), 'NOT_NEAR_NPC');
    assert.equal(await expectRefusal(client, 'npc:talk', { npcId: 'chicken' }), 'NO_DIALOGUE');
    assert.equal(await expectRefusal(client, 'npc:talk', {}), 'INVALID_PAYLOAD');
    assert.equal(await expectRefusal(client, 'npc:talk', { npcId: 'x'.repeat(81) }), 'INVALID_PAYLOAD');
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 0 }), 'NO_DIALOGUE_OPEN');
    assert.equal(await expectRefusal(client, 'dialogue:continue'), 'NO_DIALOGUE_OPEN');
    assert.equal(await expectRefusal(client, 'dialogue:close'), 'NO_DIALOGUE_OPEN');
    assert.deepEqual(await questRows(server.context.db, characterId), []);
    assert.ok(!client.events.some((e) => e.type.startsWith('dialogue:')), 'no dialogue was opened');
    client.close();
  });

  it('refuses options out of range, hidden or malformed; the dialogue stays where it was', async () => {
    const { client, characterId } = await questPlayer(server, AT_TAMSIN);
    await expectStep(client, 'npc:talk', { npcId: TAMSIN });
    for (const option of [4, -1, 1.5, 1e308, 'nowhere']) {
      assert.equal(await expectRefusal(client, 'dialogue:choose', { option }), 'INVALID_OPTION', `option ${String(option)}`);
    }
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 2 }), 'OPTION_UNAVAILABLE', 'the return option is hidden before the quest');
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 'returned' }), 'INVALID_OPTION', 'a hidden target cannot be chosen by id');
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: true }), 'INVALID_PAYLOAD');
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 0, extra: 1 }), 'INVALID_PAYLOAD');
    assert.equal(await expectRefusal(client, 'dialogue:choose', {}), 'INVALID_PAYLOAD');
    assert.equal(await expectRefusal(client, 'dialogue:continue'), 'NO_NEXT', 'a node with options is not continued');
    assert.deepEqual(await questRows(server.context.db, characterId), []);

    // Still on the greeting: a valid choice goes on from there.
    const locket = await expectStep(client, 'dialogue:choose', { option: 0 });
    assert.equal(locket.data.nodeId, 'locket');
    const tips = await expectStep(client, 'dialogue:choose', { option: 1 });
    assert.equal(tips.type, 'dialogue:closed', '"Sorry to hear that." ends the dialogue');
    assert.equal(tips.data.reason, 'END');
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 0 }), 'NO_DIALOGUE_OPEN');
    assert.deepEqual(await questRows(server.context.db, characterId), []);
    client.close();
  });

  it('walking away closes the dialogue; talking to someone else replaces it', async () => {
    const { client } = await questPlayer(server, AT_TAMSIN);
    await expectStep(client, 'npc:talk', { npcId: TAMSIN });
    const again = client.next('dialogue:closed');
    await expectStep(client, 'npc:talk', { npcId: 'old_tamsin' });
    assert.equal((await again).data.reason, 'REPLACED');

    const closed = client.next('dialogue:closed');
    const moved = await request(client, 'player:move', { x: AT_TAMSIN.x, z: AT_TAMSIN.z - 6 }, 'player:path');
    assert.ok(moved.ok);
    const { data } = await closed;
    assert.deepEqual([data.reason, data.npc.id], ['WALKED_AWAY', TAMSIN]);
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 0 }), 'NO_DIALOGUE_OPEN');
    client.close();
  });

  it('a trade closes an open dialogue, and no one talks while trading', async () => {
    const a = await trader(server, AT_TAMSIN);
    const b = await trader(server, { x: AT_TAMSIN.x + 1, z: AT_TAMSIN.z });
    await a.ws.waitFor('quest:state');
    const greet = await expectStep(a.ws, 'npc:talk', { npcId: TAMSIN });
    assert.deepEqual(optionTexts(greet), ['Your locket?', 'Any fishing tips?', 'Goodbye.']);
    const closed = a.ws.next('dialogue:closed');
    await openTrade(a, b);
    assert.equal((await closed).data.reason, 'INTERFACE_BLOCKED');
    assert.equal(await expectRefusal(a.ws, 'npc:talk', { npcId: TAMSIN }), 'INTERFACE_BLOCKED');
    assert.equal(await expectRefusal(b.ws, 'npc:talk', { npcId: TAMSIN }), 'INTERFACE_BLOCKED');
    a.ws.close();
    b.ws.close();
  });

  it('a quest change the transaction refuses leaves the dialogue and the quest as they were', async () => {
    // Holding the locket at stage 2, but the hand-in option was chosen after the locket left the inventory.
    const { client, characterId } = await seededPlayer(server, AT_TAMSIN, { inventory: [stack('tarnished_locket')] });
    await server.context.db.em.fork().execute(
      `insert into quest_progress (character_id, quest_id, stage, started_at) values (?, 'lost_locket', 2, now())`, [characterId]);
    client.send('world:leave');
    await client.waitFor('world:left');
    client.send('world:enter', { characterId });
    await client.waitFor('quest:state', (d) => d.quests[0].stage === 2);
    const greet = await expectStep(client, 'npc:talk', { npcId: TAMSIN });
    assert.ok(optionTexts(greet).includes('I found your locket.'));
    // The locket leaves outside the world's view (as another writer would); the memory copy still shows it.
    await server.context.db.em.fork().execute('delete from inventory where character_id = ?', [characterId]);
    assert.equal(await expectRefusal(client, 'dialogue:choose', { option: 2 }), 'MISSING_ITEMS');
    const [row] = await questRows(server.context.db, characterId);
    assert.deepEqual([row.stage, row.completed_at], [2, null]);
    const [{ quest_points: points }] = await server.context.db.em.fork().execute<Array<{ quest_points: number }>>('select quest_points from characters where id = ?', [characterId]);
    assert.equal(Number(points), 0);
    // The dialogue is still on the greeting.
    assert.equal((await expectStep(client, 'dialogue:choose', { option: 3 })).data.reason, 'END');
    client.close();
  });
});
