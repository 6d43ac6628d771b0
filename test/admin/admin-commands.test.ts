import assert from 'node:assert/strict';
import { lastSync, request, rowsOf, seededPlayer, until, worldRoomOf } from '../economy/support.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { visibleEntities } from '../helpers/players.ts';

describe('admin commands over a real socket @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ADMIN_CODE: 'open sesame', RATE_LIMIT_AUTH_PER_MINUTE: '100' });
  });
  after(async () => {
    await server.close();
  });

  const say = (client: Parameters<typeof request>[0], message: string) => request(client, 'player:chat', { message }, 'admin:done');

  it('refuses without the code and accepts with it: give, setlevel, teleport, spawn, kick', async () => {
    const admin = await seededPlayer(server, { x: 100, z: 100 });
    const other = await seededPlayer(server, { x: 101, z: 100 });
    const refused = await say(admin.client, '/give coins 100');
    assert.equal(refused.ok ? 'done' : refused.code, 'NOT_ADMIN');
    assert.deepEqual((await rowsOf(server.context.db, admin.characterId)).inventory, []);

    admin.client.send('player:chat', { message: '/admin open sesame' });
    await admin.client.waitFor('admin:granted');

    const give = await say(admin.client, '/give coins 100');
    assert.ok(give.ok);
    assert.deepEqual(give.event.data, { command: 'give', itemId: 'coins', quantity: 100, source: 'admin_give' });
    const rows = await rowsOf(server.context.db, admin.characterId);
    assert.deepEqual(rows.inventory.map((r) => [r.item_id, r.quantity]), [['coins', 100]]);
    assert.equal(rows.coins, 100);
    const bad = await say(admin.client, '/give no_such_item 1');
    assert.equal(bad.ok ? 'done' : bad.code, 'UNKNOWN_ITEM');

    assert.ok((await say(admin.client, '/setlevel attack 50')).ok);
    assert.deepEqual((await admin.client.waitFor('skill:xp', (d) => d.skill === 'attack')).data, { skill: 'attack', amount: 0, xp: 101333, level: 50 });
    const [row] = await server.context.db.em.fork().execute<Array<{ attack_level: number; attack_xp_tenths: number; combat_level: number }>>(
      'select attack_level, attack_xp_tenths, combat_level from characters where id = ?', [admin.characterId]);
    assert.deepEqual([Number(row.attack_level), Number(row.attack_xp_tenths), Number(row.combat_level)], [50, 1013330, 19]);
    assert.equal(lastSync(admin.client).combatLevel, 19);

    assert.ok((await say(admin.client, '/teleport 104 103')).ok);
    assert.deepEqual({ x: lastSync(admin.client).x, z: lastSync(admin.client).z }, { x: 104, z: 103 });
    const blocked = await say(admin.client, '/teleport 99999 1');
    assert.equal(blocked.ok ? 'done' : blocked.code, 'INVALID_ARGUMENT');

    const spawned = await say(admin.client, '/spawn chicken');
    assert.ok(spawned.ok);
    await admin.client.waitFor('world:update', () => visibleEntities(admin.client).get(`npc:${spawned.event.data.id}`)?.npcId === 'chicken');

    const kicked = await say(admin.client, `/kick ${lastSync(other.client).name}`);
    assert.ok(kicked.ok);
    await other.client.waitFor('player:kicked');
    await until(async () => {
      const [session] = await server.context.db.em.fork().execute<Array<{ reason: string | null }>>(
        'select reason from player_sessions where character_id = ? order by started_at desc limit 1', [other.characterId]);
      return session?.reason === 'kicked';
    });
    assert.equal(worldRoomOf(admin.client).player(other.characterId), undefined, 'the kicked player is out of the world at once');
    admin.client.close();
    other.client.close();
  });
});
