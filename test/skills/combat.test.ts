import assert from 'node:assert/strict';
import { request, rowsOf, seededPlayer, stack, until } from '../economy/support.ts';
import { jsonPlayer } from '../helpers/players.ts';
import type { TestServer } from '../helpers/server.ts';
import { withCombatServer } from './support.ts';

/** spawns.json: npcs[6] is a chicken at (90, 60), npcs[13] a goblin at (55, 45). */
const CHICKEN = 'npc-6';
const GOBLIN = 'npc-13';
/** npcs[7]: another chicken, at (92, 62). */
const SECOND_CHICKEN = 'npc-7';

describe('combat with NPCs over a real socket @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  withCombatServer((started) => (server = started));

  it('kill an NPC → drop owned by the killer → pick up → npc kill recorded', async () => {
    const { client, characterId } = await seededPlayer(server, { x: 91, z: 60 }, { inventory: [stack('bronze_sword')] });
    await server.context.db.em.fork().execute('update characters set attack_level = 99, attack_xp_tenths = 130344310, strength_level = 99, strength_xp_tenths = 130344310 where id = ?', [characterId]);
    client.send('world:leave');
    await client.waitFor('world:left');
    client.send('world:enter', { characterId });
    const skills = await client.waitFor('skills:state', (d) => d.combatLevel > 3);
    assert.equal(skills.data.combatLevel, 67, 'combat level from attack and strength 99');

    client.send('player:action', { action: 'attack', targetId: CHICKEN });
    const hit = await client.waitFor('combat:hit', (d) => d.attackerId === characterId);
    assert.deepEqual(hit.data, { attackerId: characterId, targetId: CHICKEN, damage: 30, targetHealth: 0, maxHealth: 30 });
    const died = await client.waitFor('npc:died');
    assert.equal(died.data.killerId, characterId);
    assert.deepEqual(died.data.drops.map((d: { itemId: string }) => d.itemId).sort(), ['bones', 'feather', 'raw_chicken']);
    assert.deepEqual((await client.waitFor('skill:xp', (d) => d.skill === 'attack')).data.amount, 12, '4 attack XP per hitpoint of damage (accurate)');
    assert.equal((await client.waitFor('skill:xp', (d) => d.skill === 'constitution')).data.amount, 4);
    assert.equal((await client.waitFor('action:stopped')).data.reason, 'TARGET_DIED');

    await until(async () => (await rowsOf(server.context.db, characterId)).ground.length === 3);
    const bones = died.data.drops.find((d: { itemId: string }) => d.itemId === 'bones');
    const picked = await request(client, 'groundItem:pickup', { groundItemId: bones.groundItemId }, 'groundItem:pickedUp');
    assert.ok(picked.ok, 'the killer picks up the bones');
    const rows = await rowsOf(server.context.db, characterId);
    assert.deepEqual(rows.inventory.map((r) => r.item_id).sort(), ['bones', 'bronze_sword']);
    const kills = await server.context.db.em.fork().execute<Array<{ npc_id: string; kill_count: number }>>(
      'select npc_id, kill_count from npc_kills where character_id = ?', [characterId]);
    assert.deepEqual(kills.map((k) => [k.npc_id, Number(k.kill_count)]), [['chicken', 1]]);

    const gone = await request(client, 'player:action', { action: 'attack', targetId: CHICKEN }, 'action:started');
    assert.equal(gone.ok ? 'accepted' : gone.code, 'NOT_FOUND', 'a dead NPC cannot be attacked until it respawns');
    client.close();
  });

  it('three 1-damage hits give exactly 4 constitution XP (4/3 per hitpoint, no rounding lost), shown and stored', async () => {
    // A new character hits for at most 1 (strength 1): a chicken (3 hitpoints) takes three hits.
    const { client, characterId, account } = await seededPlayer(server, { x: 93, z: 62 });
    client.send('player:action', { action: 'attack', targetId: SECOND_CHICKEN });
    const died = await client.waitFor('npc:died', (d) => d.id === SECOND_CHICKEN, 20_000);
    assert.equal(died.data.killerId, characterId);
    const hits = client.events.filter((e) => e.type === 'combat:hit' && e.data.attackerId === characterId && e.data.targetId === SECOND_CHICKEN);
    assert.deepEqual(hits.map((e) => e.data.damage), [10, 10, 10], 'three hits of 1 hitpoint (× 10 on the health scale)');
    const gains = client.events.filter((e) => e.type === 'skill:xp' && e.data.skill === 'constitution');
    assert.equal(gains.length, 3);
    assert.equal(gains.at(-1)!.data.xp, 1154 + 4, 'the whole points shown: 1154 + 3 × 4/3');
    assert.equal(Math.round(gains.reduce((sum, e) => sum + e.data.amount, 0) * 10), 40, 'the amounts add up to 4.0');
    const attack = client.events.filter((e) => e.type === 'skill:xp' && e.data.skill === 'attack');
    assert.equal(attack.at(-1)!.data.xp, 12);

    // Stored: after leaving and entering again the world reads the same experience back. A leave within 17 ticks of
    // the fight is refused LEAVE_IN_COMBAT (docs/protocol.md), so it is asked again until the timer has run out.
    await until(async () => (await request(client, 'world:leave', {}, 'world:left')).ok, 20_000);
    client.close();
    const again = await jsonPlayer(server, account, characterId);
    const state = await again.waitFor('skills:state');
    const xpOf = (skill: string) => state.data.skills.find((s: { skill: string }) => s.skill === skill).xp;
    assert.deepEqual([xpOf('constitution'), xpOf('attack')], [1158, 12]);
    again.close();
  });

  it('an NPC retaliates, and a player at 0 health dies through the economy death flow', async () => {
    const { client, characterId } = await seededPlayer(server, { x: 56, z: 45 }, { health: 10 });
    client.send('player:action', { action: 'attack', targetId: GOBLIN });
    const hitBack = await client.waitFor('combat:hit', (d) => d.attackerId === GOBLIN);
    assert.equal(hitBack.data.targetId, characterId);
    assert.equal(hitBack.data.targetHealth, 0);
    const died = await client.waitFor('player:died');
    assert.deepEqual(died.data.respawn, { x: 100, z: 100 });
    await until(async () => (await rowsOf(server.context.db, characterId)).health === 100);
    client.close();
  });
});
