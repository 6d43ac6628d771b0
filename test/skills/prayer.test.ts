import assert from 'node:assert/strict';
import { HOME, ok, refusal, request, stack, until } from '../economy/support.ts';
import type { TestServer } from '../helpers/server.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';
import { playerWith, withCombatServer } from './support.ts';

/** spawns.json: npcs[16] is a stone golem at (155, 90); stations[5] the chapel altar at (99, 117). */
const GOLEM = 'npc-16';
const ALTAR = 'station-5';

function lastPrayerState(client: JsonWsClient): Record<string, unknown> {
  const event = [...client.events].reverse().find((e) => e.type === 'prayer:state');
  if (!event) throw new Error('no prayer:state yet');
  return event.data;
}

describe('prayer over a real socket @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  withCombatServer((started) => (server = started));

  const prayerPoints = async (characterId: string) => {
    const [row] = await server.context.db.em.fork().execute('select prayer_points from characters where id = ?', [characterId]);
    return row.prayer_points === null ? null : Number(row.prayer_points);
  };

  it('refuses prayers above the level, keeps one prayer per group, deactivates', async () => {
    const { client } = await playerWith(server, HOME, { prayer_level: 10, prayer_xp_tenths: 11540 });
    assert.deepEqual((await client.waitFor('prayer:state')).data, { points: 10, maxPoints: 10, active: [] }, 'points start full');

    assert.equal(await refusal(client, 'prayer:activate', { prayerId: 'iron_will' }, 'prayer:activated'), 'LEVEL_TOO_LOW');
    assert.equal(await refusal(client, 'prayer:activate', { prayerId: 'smite' }, 'prayer:activated'), 'UNKNOWN_PRAYER');
    assert.equal(await refusal(client, 'prayer:activate', { prayerId: 7 }, 'prayer:activated'), 'INVALID_PAYLOAD');
    assert.deepEqual(lastPrayerState(client).active, [], 'a refusal changes nothing');

    const first = await ok(client, 'prayer:activate', { prayerId: 'bark_hide' }, 'prayer:activated');
    assert.deepEqual(first.data, { prayerId: 'bark_hide', deactivated: [] });
    await ok(client, 'prayer:activate', { prayerId: 'ember_vigour' }, 'prayer:activated');
    const swap = await ok(client, 'prayer:activate', { prayerId: 'stone_hide' }, 'prayer:activated');
    assert.deepEqual(swap.data.deactivated, ['bark_hide'], 'the other defence prayer switched off');
    await client.waitFor('prayer:state', (d) => d.active.includes('stone_hide'));
    assert.deepEqual([...(lastPrayerState(client).active as string[])].sort(), ['ember_vigour', 'stone_hide']);

    const off = await ok(client, 'prayer:deactivate', { prayerId: 'stone_hide' }, 'prayer:deactivated');
    assert.deepEqual(off.data, { prayerIds: ['stone_hide'], reason: 'DEACTIVATED' });
    assert.equal(await refusal(client, 'prayer:deactivate', { prayerId: 'stone_hide' }, 'prayer:deactivated'), 'NOT_ACTIVE');
    await client.waitFor('prayer:state', (d) => d.active.length === 1);
    assert.deepEqual(lastPrayerState(client).active, ['ember_vigour']);
    client.close();
  });

  it('drains to 0 and switches every prayer off; 0 points persist over a re-login; the altar recharges', async () => {
    const { client, characterId } = await playerWith(server, { x: 100, z: 114 }, { prayer_level: 43, prayer_points: 1 });
    assert.deepEqual((await client.waitFor('prayer:state')).data, { points: 1, maxPoints: 43, active: [] });
    await ok(client, 'prayer:activate', { prayerId: 'ward_of_blades' }, 'prayer:activated');
    await ok(client, 'prayer:activate', { prayerId: 'keen_mind' }, 'prayer:activated');
    // 20 + 5 points a minute: the last point goes within 4 ticks.
    const ranOut = await client.waitFor('prayer:deactivated', (d) => d.reason === 'NO_PRAYER_POINTS', 8_000);
    assert.deepEqual([...ranOut.data.prayerIds].sort(), ['keen_mind', 'ward_of_blades']);
    assert.deepEqual((await client.waitFor('prayer:state', (d) => d.points === 0)).data, { points: 0, maxPoints: 43, active: [] });
    assert.equal(await refusal(client, 'prayer:activate', { prayerId: 'bark_hide' }, 'prayer:activated'), 'NO_PRAYER_POINTS');
    await until(async () => (await prayerPoints(characterId)) === 0);

    client.send('world:leave');
    await client.waitFor('world:left');
    const from = client.events.length;
    client.send('world:enter', { characterId });
    assert.deepEqual((await client.waitFor('prayer:state', () => true, 5_000, from)).data, { points: 0, maxPoints: 43, active: [] });

    assert.equal(await refusal(client, 'player:action', { action: 'pray', targetId: 'station-4' }, 'action:started'), 'NOT_AN_ALTAR');
    assert.equal(await refusal(client, 'player:action', { action: 'pray', targetId: 'station-99' }, 'action:started'), 'NOT_FOUND');
    const started = await ok(client, 'player:action', { action: 'pray' }, 'action:started');
    assert.deepEqual(started.data, { action: 'pray', targetId: ALTAR }, 'the nearest altar');
    const recharged = await client.waitFor('prayer:recharged', () => true, 8_000);
    assert.deepEqual(recharged.data, { altarId: ALTAR, points: 43, maxPoints: 43 });
    assert.equal((await client.waitFor('action:stopped', (d) => d.action === 'pray')).data.reason, 'DONE');
    await until(async () => (await prayerPoints(characterId)) === 43);
    client.close();
  });

  it('a protection prayer stops NPC damage; an offensive prayer raises the max hit', async () => {
    // Attack, strength, defence and constitution 99: unarmed max hit 11 (12 with Iron Will's +10 % strength).
    const { client, characterId } = await playerWith(server, { x: 156, z: 90 }, {
      attack_level: 99, strength_level: 99, defense_level: 99, constitution_level: 99, health: 990, prayer_level: 43,
    });
    await ok(client, 'prayer:activate', { prayerId: 'ward_of_blades' }, 'prayer:activated');
    client.send('player:action', { action: 'attack', targetId: GOLEM });

    const mine = (d: Record<string, unknown>) => d.attackerId === characterId;
    const first = await client.waitFor('combat:hit', mine, 8_000);
    assert.equal(first.data.damage, 110, 'no strength prayer yet');
    await ok(client, 'prayer:activate', { prayerId: 'iron_will' }, 'prayer:activated');

    const golemHit = await client.waitFor('combat:hit', (d) => d.attackerId === GOLEM, 8_000);
    assert.equal(golemHit.data.damage, 0, 'Ward of Blades blocks an NPC melee hit');
    assert.equal(golemHit.data.targetHealth, 990);

    const from = client.events.length;
    const second = await client.waitFor('combat:hit', mine, 8_000, from);
    assert.equal(second.data.damage, 120, 'Iron Will: floor(99 × 1.1) + 8 = 116 effective strength');

    await ok(client, 'prayer:deactivate', { prayerId: 'ward_of_blades' }, 'prayer:deactivated');
    const unguarded = await client.waitFor('combat:hit', (d) => d.attackerId === GOLEM, 8_000, client.events.length);
    assert.equal(unguarded.data.damage, 50, 'the golem hits its max (5) without the ward');
    client.send('player:action', { action: 'stop' });
    client.close();
  });

  it('burying bones gives prayer XP through the skill book: skill:xp, a level-up and a new prayer point', async () => {
    const { client, characterId } = await playerWith(server, HOME, { prayer_xp_tenths: 800 }, { inventory: [stack('bones')] });
    assert.deepEqual((await client.waitFor('prayer:state')).data, { points: 1, maxPoints: 1, active: [] });
    const used = await request(client, 'inventory:use', { slot: 0, itemId: 'bones' }, 'inventory:used');
    assert.ok(used.ok);
    const xp = await client.waitFor('skill:xp', (d) => d.skill === 'prayer');
    assert.deepEqual(xp.data, { skill: 'prayer', amount: 4.5, xp: 84, level: 2 });
    assert.deepEqual((await client.waitFor('skill:levelUp', (d) => d.skill === 'prayer')).data, { skill: 'prayer', level: 2 });
    assert.deepEqual((await client.waitFor('prayer:state', (d) => d.maxPoints === 2)).data, { points: 2, maxPoints: 2, active: [] });
    await until(async () => {
      const [row] = await server.context.db.em.fork().execute('select prayer_xp_tenths, prayer_level from characters where id = ?', [characterId]);
      return Number(row.prayer_xp_tenths) === 845 && Number(row.prayer_level) === 2; // 80 + 4.5, exactly
    });
    client.close();
  });
});
