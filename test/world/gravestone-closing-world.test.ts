/**
 * Issue #38 item 3: a world the matchmaker opened does not close while it holds a gravestone or ground items
 * (docs/worlds.md "Opening and closing"): the owner comes back to it by number within the documented window and
 * claims, and an unclaimed gravestone still expires on time in the emptied world, which closes once nothing is left.
 * WORLD_CAPACITY=2 with two players kept in world 1, so the third player's entry opens world 2.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { killPlayer } from '../../rooms/world/features/economy/death.ts';
import { HOME, ok, rowsOf, seededPlayer, stack, until, worldRoomOf, type Seeded } from '../economy/support.ts';
import { leaveWorlds } from '../helpers/players.ts';
import { clearLeftoversAbove } from '../helpers/database.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';

const GRAVESTONE_SECONDS = 6;
const GROUND_SECONDS = 2;

describe(`a world that empties keeps its gravestones and ground items until they are claimed or expire (${databaseUnderTest()}) @db`, function () {
  this.timeout(90_000);
  let server: TestServer;
  const sockets: JsonWsClient[] = [];

  before(async () => {
    await clearLeftoversAbove(1);
    server = await startTestServer({
      WORLD_CAPACITY: '2', WORLDS_MIN: '1', WORLD_IDLE_CLOSE_SECONDS: '1', GRAVESTONE_SECONDS: String(GRAVESTONE_SECONDS),
      GROUND_ITEM_PRIVATE_SECONDS: String(GROUND_SECONDS), GROUND_ITEM_PUBLIC_SECONDS: String(GROUND_SECONDS),
    });
    // World 1 is full for the whole suite: every other player goes to a world the matchmaker opens.
    for (let i = 0; i < 2; i++) sockets.push((await seededPlayer(server, { x: 80 + i, z: 80 })).client);
  });
  after(async () => {
    await leaveWorlds(sockets);
    await server?.close();
  });

  const db = () => server.context.db;
  const worldOpen = async (world: number) => (await db().em.fork().execute('select number from worlds where number = ?', [world])).length === 1;
  const joinedWorld = (p: Seeded) => p.client.events.find((e) => e.type === 'world:joined')!.data.world as number;

  /** A player with these items in a new world, killed there (its gravestone at home, where it respawns), then gone. */
  async function diesInNewWorldAndLeaves(inventory: ReturnType<typeof stack>[], dropFirst = false) {
    const p = await seededPlayer(server, HOME, { inventory });
    sockets.push(p.client);
    const world = joinedWorld(p);
    assert.ok(world > 1, 'world 1 is full: the player is in a world the matchmaker opened');
    const dropped = dropFirst ? await ok(p.client, 'inventory:drop', { slot: 0 }, 'inventory:dropped') : undefined;
    const room = worldRoomOf(p.client);
    const { gravestone } = await killPlayer(room, room.player(p.characterId)!);
    assert.ok(gravestone, 'the items beyond the 3 kept went into a gravestone');
    p.client.send('world:leave');
    await p.client.waitFor('world:left');
    return { p, world, gravestone, groundItemId: dropped?.data.groundItemId as string | undefined };
  }

  it('the owner comes back to the emptied world by number and claims the gravestone and a private drop', async () => {
    const { p, world, gravestone, groundItemId } = await diesInNewWorldAndLeaves(
      [stack('coins', 25), stack('bronze_sword'), stack('bread'), stack('bronze_dagger'), stack('feather', 5), stack('bread'), stack('bones')], true);
    // WORLD_IDLE_CLOSE_SECONDS=1: an empty world holding nothing would be gone by now.
    await sleep(2_500);
    assert.ok(await worldOpen(world), `world ${world} stays open while it holds a gravestone`);

    p.client.send('world:enter', { characterId: p.characterId, world });
    const joined = await p.client.next('world:joined');
    assert.equal(joined.data.world, world);
    const claimed = await ok(p.client, 'gravestone:claim', { gravestoneId: gravestone.id }, 'gravestone:claimed');
    assert.deepEqual(claimed.data.remaining, []);
    await ok(p.client, 'groundItem:pickup', { groundItemId }, 'groundItem:pickedUp');
    const rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.deaths.map((d) => d.status), ['reclaimed']);
    assert.equal(rows.ground.length, 0);
    assert.equal(rows.inventory.find((r) => r.item_id === 'coins')?.quantity, 25, 'the dropped coins are back');

    // Nothing is left in it: once empty, the world closes as before.
    p.client.send('world:leave');
    await p.client.waitFor('world:left');
    await until(async () => !(await worldOpen(world)), 10_000);
  });

  it('unclaimed, the gravestone expires on time in the emptied world, and the world closes once its items are gone', async () => {
    const { p, world, gravestone } = await diesInNewWorldAndLeaves(
      [stack('coins', 10), stack('bronze_sword'), stack('bread'), stack('bronze_dagger'), stack('feather', 5), stack('bread')]);
    const status = async () => (await rowsOf(db(), p.characterId)).deaths[0].status;
    await until(async () => (await status()) === 'released', (GRAVESTONE_SECONDS + 10) * 1_000);
    const [row] = await db().em.fork().execute<Array<{ expires_at: unknown; resolved_at: unknown }>>(
      'select expires_at, resolved_at from player_deaths where id = ?', [gravestone.id]);
    const late = new Date(String(row.resolved_at instanceof Date ? row.resolved_at.toISOString() : row.resolved_at)).getTime()
      - new Date(String(row.expires_at instanceof Date ? row.expires_at.toISOString() : row.expires_at)).getTime();
    assert.ok(late >= 0 && late < 3_000, `released ${late} ms after its expiry`);
    assert.ok(await worldOpen(world), 'the released items lie in the world: it is still open');

    // The public piles expire too (a sink), and then nothing holds the world any more.
    await until(async () => !(await worldOpen(world)), (GROUND_SECONDS + 10) * 1_000);
    const left = await db().em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from ground_items where world = ?', [world]);
    assert.equal(Number(left[0].n), 0, 'the closed world left no ground items behind');
    const open = await db().em.fork().execute<Array<{ n: number }>>(`select count(*)::int as n from player_deaths where world = ? and status = 'locked'`, [world]);
    assert.equal(Number(open[0].n), 0, 'nor an open gravestone');
  });
});
