/**
 * The chaos run's /ws walker takes its seat back with its reconnection token when its connection drops
 * (loadtest/lib/soak/seat-resume.ts), as the play page's client does. Its connection goes through a loopback proxy
 * the test controls (loadtest/lib/chaos/link.ts); dropping the link resets the socket, and the world holds the
 * seat. A walker that entered with its character instead was refused ALREADY_ONLINE until the seat lapsed (20 s):
 * in CI's chaos run one was back 20.6 s after the last fault, past the 16-s bound.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BotEnv } from '../loadtest/lib/chaos/bot-env.ts';
import type { ServerNode } from '../loadtest/lib/chaos/cluster.ts';
import { Link } from '../loadtest/lib/chaos/link.ts';
import { Violations } from '../loadtest/lib/chaos/violations.ts';
import { wsWitnessLoop, type WsWitness } from '../loadtest/lib/chaos/ws-witness.ts';
import { seededRandom } from '../loadtest/lib/seed.ts';
import { seedCharacters } from '../loadtest/lib/soak/ledger.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

describe('the chaos walker after a dropped connection', function () {
  this.timeout(60_000);
  let server: TestServer;
  let link: Link;

  before(async () => {
    server = await startTestServer();
    link = new Link('walker', server.port);
    await link.start();
  });
  after(async () => {
    await link?.stop();
    await server?.close();
  });

  it('reconnects with its token and acts again within a few seconds of the link coming back', async () => {
    const [seeded] = await seedCharacters(server.context.db, [{ role: 'trader', x: 113, z: 100, inventory: [], bank: [] }]);
    const token = server.context.auth.tokens.sign({ accountId: seeded.accountId, roles: ['player'], scope: 'player' }).token;
    const node = { name: 's1', wsUrl: `ws://127.0.0.1:${link.port}` } as ServerNode;
    let stopAt = Date.now() + 40_000;
    const violations = new Violations();
    const env: BotEnv = {
      reachable: () => (link.current === 'open' ? [node] : []), worlds: 1, stopAt: () => stopAt,
      opTimeoutMs: 5_000, entryTimeoutMs: 10_000, violations,
      stats: { acked: {}, refused: {}, timeouts: 0, entries: 0, sessions: { ghosts: 0, ghostAnswers: 0, actedAfterNewerGone: 0, twoAtOnce: 0, closeCodes: {} } },
    };
    const walker: WsWitness = {
      me: { id: seeded.characterId, name: seeded.name, accountId: seeded.accountId, token, home: { x: 113, z: 100 }, friends: [] },
      lastAckAt: 0, lastProblem: '', trail: [],
    };
    const loop = wsWitnessLoop(walker, env, seededRandom(11));
    try {
      for (let i = 0; i < 100 && walker.lastAckAt === 0; i++) await sleep(100);
      assert.ok(walker.lastAckAt > 0, `the walker acts: ${walker.trail.join(' | ')}`);

      await link.cut('drop');
      await sleep(500);
      await link.heal();
      const healedAt = Date.now();
      for (let i = 0; i < 150 && walker.lastAckAt < healedAt; i++) await sleep(100);
      const took = walker.lastAckAt - healedAt;
      assert.ok(walker.lastAckAt > healedAt && took < 5_000, `acted again ${took} ms after the link healed: ${walker.trail.join(' | ')}`);
      assert.ok(walker.trail.some((step) => step.includes('reconnect through s1')), walker.trail.join(' | '));
    } finally {
      stopAt = Date.now();
      await loop;
    }
    assert.deepEqual(violations.total, 0);
  });
});
