/**
 * The economy soak, short form: trader pairs (trade, bank, drop/pick up) and shoppers over /ws against a real
 * server process that is killed with SIGKILL twice at random moments and restarted on the same data; the SQL
 * checks at the end must find every item exactly where the acknowledged operations put it (docs/soak.md).
 */
import assert from 'node:assert/strict';
import { formatReport, runSoak } from '../loadtest/lib/soak/run.ts';
import { databaseUnderTest } from './helpers/server.ts';

describe(`economy soak, short form, on ${databaseUnderTest()} @db`, function () {
  this.timeout(90_000);

  it('keeps every item exactly once through trades, banking, shops and drops across kill -9 restarts', async () => {
    const report = await runSoak({ durationSeconds: 30, bots: 6, shoppers: 2, crashes: 2, databaseUrl: process.env.DATABASE_URL || undefined });
    const summary = formatReport(report);
    assert.deepEqual(report.violations, [], summary);
    assert.ok(report.crashes >= 2 && report.restarts === report.crashes, summary);
    assert.ok(report.acked.trade > 0 && report.acked['shop:buy'] > 0, summary);
    assert.equal(report.tradesCompletedInAudit >= report.tradesAcknowledged, true, summary);
  });
});
