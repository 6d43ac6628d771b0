/**
 * A process cut off from Redis (docs/scaling.md "What a client sees, and the bounds"): an event that needs Redis
 * while it cannot be reached — a `world:hop` reads the room listings — is refused WORLD_UNAVAILABLE with
 * `retryAfterSeconds` (src/cluster/unreachable.ts), not INTERNAL_ERROR as the chaos run found it; once the link
 * heals, the hop goes through. The cut is a loopback TCP proxy the test controls between the server and Redis
 * (loadtest/lib/chaos/link.ts). Needs Redis and the local PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Link } from '../../loadtest/lib/chaos/link.ts';
import { spawnServer, stopBehindLink, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import { noRedisSkipNote, redisAnswers, TEST_REDIS_URL } from '../helpers/redis.ts';
import { scratchPostgres } from '../helpers/two-processes.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import type { ScratchDatabase } from '../../loadtest/lib/postgres.ts';

describe('a process cut off from Redis refuses with a documented code @db', function () {
  this.timeout(120_000);
  let database: ScratchDatabase | undefined;
  let link: Link | undefined;
  let server: ServerProcess | undefined;
  const sockets: JsonWsClient[] = [];

  before(async function () {
    if (!(await redisAnswers())) {
      noRedisSkipNote('the Redis cut suite');
      return this.skip();
    }
    database = await scratchPostgres('rediscut');
    if (!database) return this.skip();
    link = new Link('redis', Number(new URL(TEST_REDIS_URL).port || 6379));
    await link.start();
    const run = randomUUID().slice(0, 8);
    server = await spawnServer({
      DATABASE_URL: database.url, REDIS_URL: `redis://127.0.0.1:${link.port}`, CLUSTER_KEY_PREFIX: `test-${run}:`,
      RATE_LIMIT_KEY_PREFIX: `test-${run}`, WORLDS_MIN: '2', WS_MESSAGES_PER_SECOND: '1000',
    });
    await waitForHealth(server, 60_000);
    // /health answers once the process listens, before it has opened its standing worlds: wait for both.
    for (let attempt = 0; attempt < 60; attempt++) {
      const listed = await fetch(`${server.baseUrl}/api/v1/worlds`).then((r) => r.json()) as { worlds?: Array<{ world: number }> };
      if ([1, 2].every((n) => listed.worlds?.some((w) => w.world === n))) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the standing worlds 1 and 2 were not listed within 30 s');
  });

  after(() => stopBehindLink({ sockets, link, server, database }));

  it('a hop while Redis is away is refused WORLD_UNAVAILABLE, and goes through once it is back', async () => {
    const anonymous = await fetch(`${server!.baseUrl}/api/auth/anonymous`, { method: 'POST' }).then((r) => r.json()) as { token: string };
    const player = await JsonWsClient.connect(`ws://127.0.0.1:${server!.port}`);
    sockets.push(player);
    player.send('authenticate', { token: anonymous.token });
    player.send('world:enter', { world: 1, createCharacter: { name: `Rcut${Date.now() % 100_000}` } });
    await player.waitFor('world:joined', () => true, 20_000);

    await link!.cut('drop');
    let answer;
    try {
      const from = player.events.length;
      player.send('world:hop', { world: 2 });
      answer = await Promise.race([
        player.waitFor('world:hopped', () => true, 30_000, from),
        player.waitFor('error', (data) => data.event === 'world:hop', 30_000, from),
      ]);
    } finally {
      await link!.heal();
    }
    assert.deepEqual([answer.type, answer.data.code, typeof answer.data.retryAfterSeconds], ['error', 'WORLD_UNAVAILABLE', 'number'], JSON.stringify(answer.data));

    let hopped = false;
    for (let attempt = 0; attempt < 20 && !hopped; attempt++) {
      const from = player.events.length;
      player.send('world:hop', { world: 2 });
      const next = await Promise.race([
        player.waitFor('world:hopped', () => true, 15_000, from),
        player.waitFor('error', (data) => data.event === 'world:hop', 15_000, from),
      ]);
      hopped = next.type === 'world:hopped';
      if (!hopped) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.ok(hopped, 'the hop goes through once Redis answers again');
  });
});
