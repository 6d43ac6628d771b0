import assert from 'node:assert/strict';
import { setSkillsRng } from '../../rooms/world/features/skills/activity.ts';
import { request, rowsOf, seededPlayer, stack, until } from '../economy/support.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { anonymousAccount, createCharacterRow, sdkPlayer, visibleEntities } from '../helpers/players.ts';

/** The first tree of spawns.json stands at (70, 100); its entity id is res-0. */
const TREE = 'res-0';
const BESIDE_TREE = { x: 71, z: 100 };

describe('skills: chop logs → light a fire → cook fish → eat, over a real socket @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  let roll = 0;

  before(async () => {
    server = await startTestServer();
    setSkillsRng(() => roll);
  });
  after(async () => {
    setSkillsRng(Math.random);
    await server.close();
  });

  async function xpRow(characterId: string) {
    const [row] = await server.context.db.em.fork().execute<Array<Record<string, number>>>(
      'select woodcutting_xp_tenths, woodcutting_level, firemaking_xp_tenths, cooking_xp_tenths, cooking_level, combat_level from characters where id = ?', [characterId]);
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
  }

  it('gathers, processes and eats; XP arrives as skill:xp and is saved', async () => {
    roll = 0; // every roll succeeds (and the tree depletes: its depleteChance is 1)
    const { client, characterId } = await seededPlayer(server, BESIDE_TREE, {
      inventory: [stack('bronze_hatchet'), stack('tinderbox'), stack('raw_shrimp')], health: 50,
    });

    const chopped = await request(client, 'player:action', { action: 'gather', targetId: TREE }, 'gather:success');
    assert.ok(chopped.ok, 'the chop is accepted');
    assert.deepEqual(chopped.event.data.items, [{ itemId: 'logs', quantity: 1 }]);
    const xp = await client.waitFor('skill:xp', (d) => d.skill === 'woodcutting');
    assert.deepEqual(xp.data, { skill: 'woodcutting', amount: 25, xp: 25, level: 1 });
    assert.equal((await client.waitFor('action:stopped')).data.reason, 'NODE_DEPLETED');
    await client.waitFor('world:update', () => visibleEntities(client).get(`resource:${TREE}`)?.depleted === true);
    const again = await request(client, 'player:action', { action: 'gather', targetId: TREE }, 'gather:success');
    assert.deepEqual(again.ok ? 'accepted' : again.code, 'NODE_DEPLETED');

    const lit = await request(client, 'player:action', { action: 'process', recipeId: 'burn_logs' }, 'fire:lit');
    assert.ok(lit.ok);
    assert.deepEqual({ x: lit.event.data.x, z: lit.event.data.z }, BESIDE_TREE);
    assert.deepEqual((await client.waitFor('skill:xp', (d) => d.skill === 'firemaking')).data, { skill: 'firemaking', amount: 40, xp: 40, level: 1 });
    await client.waitFor('world:update', () => visibleEntities(client).get(`fire:${lit.event.data.fireId}`) !== undefined);

    roll = 0.99; // no burn
    const cooked = await request(client, 'player:action', { action: 'process', recipeId: 'cook_shrimp', targetId: lit.event.data.fireId }, 'process:made');
    assert.ok(cooked.ok);
    assert.deepEqual(cooked.event.data, { recipeId: 'cook_shrimp', result: 'success', items: [{ itemId: 'shrimp', quantity: 1 }] });
    assert.equal((await client.waitFor('skill:xp', (d) => d.skill === 'cooking')).data.amount, 30);
    assert.equal((await client.waitFor('action:stopped', (d) => d.action === 'process' && d.reason === 'DONE')).data.reason, 'DONE');

    let rows = await rowsOf(server.context.db, characterId);
    const shrimpSlot = rows.inventory.find((r) => r.item_id === 'shrimp')!.slot;
    assert.deepEqual(rows.inventory.map((r) => r.item_id).sort(), ['bronze_hatchet', 'shrimp', 'tinderbox']);
    const ate = await request(client, 'inventory:use', { slot: shrimpSlot, itemId: 'shrimp' }, 'inventory:used');
    assert.ok(ate.ok);
    assert.equal(ate.event.data.healed, 30, 'food heals ×10 on the world health scale');
    rows = await rowsOf(server.context.db, characterId);
    assert.deepEqual(rows.inventory.map((r) => r.item_id).sort(), ['bronze_hatchet', 'tinderbox']);

    // XP is written in small batches (every 10 ticks) while online.
    await until(async () => (await xpRow(characterId)).cooking_xp_tenths === 300);
    // Stored in tenths of a point: 25, 40 and 30 XP.
    assert.deepEqual(await xpRow(characterId), { woodcutting_xp_tenths: 250, woodcutting_level: 1, firemaking_xp_tenths: 400, cooking_xp_tenths: 300, cooking_level: 1, combat_level: 3 });
    client.close();
  });

  it('an SDK player near a fire holds it in its state (fires map, area of interest)', async () => {
    roll = 0;
    const spot = { x: 80, z: 104 };
    const observer = await anonymousAccount(server);
    const room = await sdkPlayer(server, observer, (await createCharacterRow(server, observer.accountId, { x: spot.x + 2, z: spot.z })).id);
    room.onMessage('*', () => {});
    const { client } = await seededPlayer(server, spot, { inventory: [stack('tinderbox'), stack('logs')] });
    const lit = await request(client, 'player:action', { action: 'process', recipeId: 'burn_logs' }, 'fire:lit');
    assert.ok(lit.ok);
    const fireId = lit.event.data.fireId as string;
    await until(async () => room.state.fires?.get(fireId) !== undefined);
    const fire = room.state.fires.get(fireId)!;
    assert.deepEqual({ x: fire.x, z: fire.z, id: fire.id }, { ...spot, id: fireId });
    assert.ok(fire.expiresAt > Date.now(), 'it carries when it burns out');
    await room.leave();
    client.close();
  });

  it('refuses without the tool, the level, the inputs or a known node', async () => {
    roll = 0;
    const { client } = await seededPlayer(server, { x: 76, z: 110 }, { inventory: [stack('tinderbox')] });
    const noTool = await request(client, 'player:action', { action: 'gather', targetId: 'res-3' }, 'gather:success');
    assert.equal(noTool.ok ? 'accepted' : noTool.code, 'NO_TOOL');
    const oak = await request(client, 'player:action', { action: 'gather', targetId: 'res-4' }, 'gather:success');
    assert.equal(oak.ok ? 'accepted' : oak.code, 'LEVEL_TOO_LOW');
    const recipe = await request(client, 'player:action', { action: 'process', recipeId: 'burn_logs' }, 'fire:lit');
    assert.equal(recipe.ok ? 'accepted' : recipe.code, 'MISSING_ITEMS');
    const unknown = await request(client, 'player:action', { action: 'gather', targetId: 'res-999' }, 'gather:success');
    assert.equal(unknown.ok ? 'accepted' : unknown.code, 'NOT_FOUND');
    client.close();
  });

  it('walks beside a node out of reach first; a level-up sends skill:levelUp and is written at once', async () => {
    roll = 0;
    const { client, characterId } = await seededPlayer(server, { x: 76, z: 95 }, { inventory: [stack('bronze_hatchet')] });
    await server.context.db.em.fork().execute('update characters set woodcutting_xp_tenths = 800 where id = ?', [characterId]);
    client.send('world:leave');
    await client.waitFor('world:left');
    client.send('world:enter', { characterId });
    await client.waitFor('skills:state', (d) => d.skills.find((s: { skill: string }) => s.skill === 'woodcutting').xp === 80);
    client.send('player:action', { action: 'gather', targetId: 'res-1' });
    assert.deepEqual((await client.waitFor('skill:levelUp')).data, { skill: 'woodcutting', level: 2 });
    const me = visibleEntities(client).get(`player:${characterId}`)!;
    assert.equal(Math.max(Math.abs(Number(me.x) - 72), Math.abs(Number(me.z) - 95)), 1, 'walked beside the tree at (72, 95)');
    await until(async () => (await xpRow(characterId)).woodcutting_level === 2);
    assert.equal((await xpRow(characterId)).woodcutting_xp_tenths, 1050);
    client.close();
  });
});
