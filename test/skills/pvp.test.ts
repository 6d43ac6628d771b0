import assert from 'node:assert/strict';
import { HOME, ok, refusal, rowsOf, stack, until, type Seeded } from '../economy/support.ts';
import type { TestServer } from '../helpers/server.ts';
import { openTrade } from '../trade/support.ts';
import { playerWith, withCombatServer } from './support.ts';

/** Inside Ashen Reach (world-areas.json: the wilderness, `pvp: true`), far from its bandits. */
const WILDERNESS = { x: 30, z: 15 };

const trader = (p: Seeded) => ({ id: p.characterId, name: '', account: p.account, ws: p.client });

describe('player versus player over a real socket @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  withCombatServer((started) => (server = started));

  it('refuses an attack on a player outside PvP areas, on oneself, and on a player in a trade', async () => {
    const a = await playerWith(server, HOME, {});
    const b = await playerWith(server, { x: HOME.x + 1, z: HOME.z }, {});
    assert.equal(await refusal(a.client, 'player:action', { action: 'attack', targetId: b.characterId }, 'action:started'), 'NOT_PVP_AREA');
    assert.equal(await refusal(a.client, 'player:action', { action: 'attack', targetId: a.characterId }, 'action:started'), 'SELF');

    const c = await playerWith(server, WILDERNESS, {});
    const d = await playerWith(server, { x: WILDERNESS.x + 1, z: WILDERNESS.z }, {});
    const e = await playerWith(server, { x: WILDERNESS.x, z: WILDERNESS.z + 1 }, {});
    assert.equal(await refusal(c.client, 'player:action', { action: 'attack', targetId: b.characterId }, 'action:started'), 'NOT_PVP_AREA',
      'both players must stand in a PvP area');
    await openTrade(trader(d), trader(e));
    assert.equal(await refusal(c.client, 'player:action', { action: 'attack', targetId: d.characterId }, 'action:started'), 'PLAYER_BUSY');
    assert.equal(await refusal(d.client, 'player:action', { action: 'attack', targetId: c.characterId }, 'action:started'), 'INTERFACE_BLOCKED');
    for (const p of [a, b, c, d, e]) p.client.close();
  });

  it('players fight in a PvP area: combat:hit to both, and the loser dies through the death flow', async () => {
    const strong = await playerWith(server, WILDERNESS, { attack_level: 99, strength_level: 99 });
    const weak = await playerWith(server, { x: WILDERNESS.x + 2, z: WILDERNESS.z }, { health: 50, prayer_level: 10, prayer_points: 3 }, {
      inventory: [stack('bronze_sword'), stack('bronze_hatchet'), stack('bronze_pickaxe'), stack('tinderbox')],
    });
    const watcher = await playerWith(server, { x: WILDERNESS.x, z: WILDERNESS.z + 3 }, {});
    await ok(weak.client, 'prayer:activate', { prayerId: 'bark_hide' }, 'prayer:activated');
    await ok(strong.client, 'player:action', { action: 'attack', targetId: weak.characterId }, 'action:started');

    const isHit = (d: Record<string, unknown>) => d.attackerId === strong.characterId && d.targetId === weak.characterId;
    const seenByVictim = await weak.client.waitFor('combat:hit', isHit, 8_000);
    // Max hit 11 at strength 99, unarmed; the victim's 5 hitpoints cap it.
    assert.deepEqual(seenByVictim.data, { attackerId: strong.characterId, targetId: weak.characterId, damage: 50, targetHealth: 0, maxHealth: 100 });
    await strong.client.waitFor('combat:hit', isHit);
    await watcher.client.waitFor('combat:hit', isHit);
    assert.ok((await strong.client.waitFor('skill:xp', (d) => d.skill === 'attack')).data.amount > 0);

    const died = await weak.client.waitFor('player:died', () => true, 8_000);
    assert.deepEqual(died.data.respawn, { x: 100, z: 100 });
    assert.equal(died.data.kept.length, 3, 'the three most valuable items are kept');
    assert.equal(died.data.gravestone.items.length, 1);
    assert.equal((await strong.client.waitFor('action:stopped', (d) => d.action === 'attack')).data.reason, 'TARGET_DIED');
    assert.deepEqual((await weak.client.waitFor('prayer:deactivated', (d) => d.reason === 'DIED')).data.prayerIds, ['bark_hide']);
    assert.deepEqual((await weak.client.waitFor('prayer:state', (d) => d.points === 10)).data, { points: 10, maxPoints: 10, active: [] },
      'death switches prayers off and refills the points');
    await until(async () => {
      const rows = await rowsOf(server.context.db, weak.characterId);
      return rows.health === 100 && rows.deaths.length === 1 && rows.deaths[0].status === 'locked';
    });
    for (const p of [strong, weak, watcher]) p.client.close();
  });
});
