/**
 * A process cut off from PostgreSQL (issue #34, docs/scaling.md "What a client sees, and the bounds"): while it
 * cannot reach its store it refuses what it cannot commit with the documented codes — an item move or an entry
 * WORLD_UNAVAILABLE, an authentication it cannot check SERVICE_UNAVAILABLE with close 1013 (never an auth failure) —
 * then, past a second lease time, closes the world's sessions with 4012; a REST route that needs the database answers
 * 503 SERVICE_UNAVAILABLE with Retry-After; once the link heals, the player enters
 * again within WORLD_LEASE_SECONDS + 5 s. The cut is a loopback TCP proxy the test controls between the server and
 * PostgreSQL (loadtest/lib/chaos/link.ts). Needs the local PostgreSQL.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Link } from '../../loadtest/lib/chaos/link.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../loadtest/lib/postgres.ts';
import { request } from '../economy/support.ts';
import { spawnServer, stopBehindLink, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

const LEASE_SECONDS = 3;
const LOCAL_POSTGRES = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('a process cut off from PostgreSQL refuses with documented codes and recovers @db', function () {
  this.timeout(120_000);
  let database: ScratchDatabase | undefined;
  let link: Link | undefined;
  let server: ServerProcess | undefined;
  const sockets: JsonWsClient[] = [];

  before(async function () {
    database = await createScratchDatabase(LOCAL_POSTGRES, 'dbcut').catch(() => undefined);
    if (!database) return this.skip();
    const target = new URL(database.url);
    link = new Link('postgres', Number(target.port || 5432));
    await link.start();
    target.port = String(link.port);
    server = await spawnServer({ DATABASE_URL: target.toString(), WORLD_LEASE_SECONDS: String(LEASE_SECONDS), WS_MESSAGES_PER_SECOND: '1000' });
    await waitForHealth(server, 60_000);
  });

  after(() => stopBehindLink({ sockets, link, server, database }));

  async function connect(): Promise<JsonWsClient> {
    const socket = await JsonWsClient.connect(`ws://127.0.0.1:${server!.port}`);
    sockets.push(socket);
    return socket;
  }

  it('refuses WORLD_UNAVAILABLE / SERVICE_UNAVAILABLE (1013) while cut, closes the world with 4012, and lets the player back in after', async () => {
    const anonymous = await fetch(`${server!.baseUrl}/api/auth/anonymous`, { method: 'POST' }).then((r) => r.json()) as { token: string };
    const player = await connect();
    player.send('authenticate', { token: anonymous.token });
    player.send('world:enter', { createCharacter: { name: `Cut${Date.now() % 100_000}` } });
    const joined = await player.waitFor('world:joined', () => true, 20_000);
    const characterId = (await player.waitFor('player:sync')).data.id as string;
    const closed = player.closed;

    await link!.cut('drop');
    // An item move needs the database: refused, never acknowledged, never an internal error.
    const moved = await request(player, 'inventory:move', { from: 0, to: 1 }, 'player:sync', 10_000);
    assert.equal(moved.ok ? 'acknowledged' : moved.code, 'WORLD_UNAVAILABLE', 'inventory:move while cut off');

    // A REST route that needs the database: 503 with Retry-After, never a 500 (it was INTERNAL_ERROR before).
    const signUp = await fetch(`${server!.baseUrl}/api/auth/anonymous`, { method: 'POST' });
    const problem = await signUp.json() as { code?: string };
    assert.deepEqual([signUp.status, problem.code, signUp.headers.get('retry-after')], [503, 'SERVICE_UNAVAILABLE', '5'], 'a REST route while cut off');

    // A new socket: its token cannot be checked (or is checked without the database); it is never refused as a bad token.
    const other = await connect();
    other.send('authenticate', { token: anonymous.token });
    const auth = await other.waitFor('authResult', () => true, 15_000);
    if (auth.data.success) {
      other.send('world:enter', { characterId });
      const entry = await other.waitFor('error', (d) => d.event === 'world:enter' || d.event === 'authenticate', 15_000);
      assert.equal(entry.data.code, 'WORLD_UNAVAILABLE', 'an entry while cut off');
    } else {
      assert.equal(auth.data.error.code, 'SERVICE_UNAVAILABLE');
      assert.equal((await other.closed).code, 1013);
    }

    // Past a second lease time without renewing, the world lets its sessions go with 4012.
    const outcome = await Promise.race([closed, sleep(6 * LEASE_SECONDS * 1000).then(() => undefined)]);
    assert.equal(outcome?.code, 4012, `the old session closed with ${outcome?.code ?? 'nothing'}`);

    await link!.heal();
    const healedAt = Date.now();
    let back: { world: number } | undefined;
    while (!back && Date.now() - healedAt < (LEASE_SECONDS + 5) * 1000) {
      const again = await connect();
      again.send('authenticate', { token: anonymous.token, characterId });
      back = await Promise.race([
        again.waitFor('world:joined', () => true, 5_000).then((e) => e.data as { world: number }, () => undefined),
        again.closed.then(() => undefined),
      ]);
      if (!back) await sleep(300);
    }
    assert.ok(back, `the player entered again within ${LEASE_SECONDS + 5} s of the link healing`);
    assert.equal(back.world, joined.data.world, 'into the standing world, reopened');
  });
});
