/**
 * A soak trader pair that has nothing left to move (inventory and bank empty, no ground item of its own: in a long
 * chaos run its drops expire while its world is away) keeps working on the server until the soak ends: each round
 * reads the bank instead. It used to return from every operation without a wait, spin its loop a million times on
 * the harness' event loop (34 s of the chaos harness frozen, every handshake in flight timed out), and leave the
 * soak early — which the chaos run's recovery check then read as a server that would not let the pair back in.
 */
import assert from 'node:assert/strict';
import { Bot, newSoakContext, traderPairLoop } from '../loadtest/lib/soak/bots.ts';
import { seedCharacters } from '../loadtest/lib/soak/ledger.ts';
import { seededRandom } from '../loadtest/lib/seed.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

describe('a soak trader pair with nothing to move', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it('reads its bank each round until the soak ends, without holding the event loop', async () => {
    const bank = { x: 107, z: 86 };
    const seeded = await seedCharacters(server.context.db, [
      { role: 'trader', ...bank, inventory: [], bank: [] },
      { role: 'trader', ...bank, inventory: [], bank: [] },
    ]);
    const token = (accountId: string) => server.context.auth.tokens.sign({ accountId, roles: ['player'], scope: 'player' }).token;
    const [a, b] = seeded.map((s) => new Bot(s, token(s.accountId)));
    const ctx = newSoakContext({ wsUrl: server.wsUrl, stopAt: Date.now() + 3_000, opTimeoutMs: 5_000 });
    // The longest the event loop went without running a 20-ms timer while the pair worked.
    let last = Date.now();
    let longestGap = 0;
    const beat = setInterval(() => {
      longestGap = Math.max(longestGap, Date.now() - last);
      last = Date.now();
    }, 20);
    try {
      await traderPairLoop(a, b, ctx, seededRandom(7));
    } finally {
      clearInterval(beat);
    }
    const endedAt = Date.now();
    assert.ok(endedAt >= ctx.stopAt, `the pair left its loop ${ctx.stopAt - endedAt} ms before the soak ended`);
    assert.ok(ctx.emptyHanded >= 4, `bank reads instead of moves: ${ctx.emptyHanded}`);
    assert.deepEqual(ctx.violations, []);
    assert.ok(longestGap < 1_000, `the event loop was held for ${longestGap} ms`);
  });
});
