import assert from 'node:assert/strict';
import { runFuzz } from '../loadtest/lib/fuzz-run.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

describe('fuzzing the /ws channel and the REST API (short form) @db', function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ JWT_SECRET: 'fuzz-secret' });
  });
  after(() => server?.close());

  it('survives hostile frames and requests: no 5xx, no internal error, no item created or destroyed', async () => {
    const report = await runFuzz({
      baseUrl: server.baseUrl,
      wsUrl: server.wsUrl,
      db: server.context.db,
      signToken: (accountId) => server.context.auth.tokens.sign({ accountId, roles: ['player'], scope: 'player' }).token,
    }, { frames: 300, requests: 150, seed: 20261122 });
    assert.equal(report.frames, 300);
    assert.deepEqual(report.serverErrors, []);
    assert.equal(report.internalErrors, 0);
    assert.deepEqual(report.unexpectedCloses, []);
    assert.deepEqual(report.totalsAfter, report.totalsBefore);
    assert.ok(report.totalsBefore.coins >= 1000, 'the fuzzed character held items to protect');
  });
});
