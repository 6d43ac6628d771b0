/** The chaos run's summary: what was injected, what the bots did, and every violation by kind with examples. */
import type { FaultKind } from './faults.ts';
import type { SessionStats } from './sessions.ts';
import type { ViolationKind } from './violations.ts';

export interface ChaosReport {
  seconds: number;
  faultSeconds: number;
  bots: { traders: number; shoppers: number; walkers: number; sdkBankers: number };
  leaseSeconds: number;
  boundSeconds: number;
  recoveryBoundSeconds: number;
  faults: Record<FaultKind, number>;
  faultExamples: string[];
  acked: Record<string, number>;
  refused: Record<string, number>;
  acknowledged: number;
  timeouts: number;
  entries: number;
  reconnects: number;
  /** Trader rounds with nothing to move (soak/bots.ts `emptyHanded`): a bank read instead. */
  emptyHanded: number;
  sessions: SessionStats;
  statusPolls: number;
  pollsWithTwoLive: number;
  ledgerChecks: number;
  tradesAcknowledged: number;
  tradesInAudit: number;
  shopInFlightApplied: number;
  slowestRecoveryMs: number;
  /** The slowest fresh entry of a character once the bots had left. */
  reentrySlowestMs: number;
  /** The harness' longest event-loop pause during the run (its bots' timers ran that late). */
  harnessLongestPauseMs: number;
  characters: number;
  recovered: number;
  botsTotal: number;
  restarts: string;
  violations: Array<{ kind: ViolationKind; count: number; examples: string[] }>;
  /** Kept when the run failed (or --keep-logs): the servers' logs. */
  logDir: string | null;
}

const list = (record: Record<string, number>) => Object.entries(record).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';

export function formatReport(r: ChaosReport): string {
  const total = Object.values(r.faults).reduce((a, b) => a + b, 0);
  const violations = r.violations.reduce((a, v) => a + v.count, 0);
  const lines = [
    `chaos run: ${r.seconds} s (faults over ${r.faultSeconds} s), 3 processes, ${r.bots.traders} traders, ${r.bots.shoppers} shoppers, ${r.bots.walkers} /ws walkers, ${r.bots.sdkBankers} SDK bankers; WORLD_LEASE_SECONDS ${r.leaseSeconds}`,
    `  faults: ${total} — ${list(r.faults)}`,
    ...r.faultExamples.map((e) => `    e.g. ${e}`),
    `  process restarts: ${r.restarts}`,
    `  operations acknowledged: ${r.acknowledged} — ${list(r.acked)}`,
    `  refused (state unchanged): ${list(r.refused)}`,
    `  timeouts ${r.timeouts}, entries ${r.entries} (+ ${r.reconnects} economy reconnects); trader rounds with nothing left to move (a bank read instead): ${r.emptyHanded}`,
    `  sessions abandoned and probed: ${r.sessions.ghosts} (they answered ${r.sessions.ghostAnswers} probes; ${r.sessions.actedAfterNewerGone} acted after their new session had gone, ${r.sessions.twoAtOnce} while it still acted); sessions closed by a server, by code: ${list(r.sessions.closeCodes)}`,
    `  checker: ${r.statusPolls} /status polls of every process (${r.pollsWithTwoLive} saw a world live on two), ${r.ledgerChecks} ledger checks during the run, and the final SQL checks`,
    `  trades: ${r.tradesAcknowledged} acknowledged, ${r.tradesInAudit} completed in trade_audit; shop operations in flight at a failure and found applied: ${r.shopInFlightApplied}`,
    `  after the last fault: ${r.recovered} of ${r.botsTotal} bots had an operation acknowledged, the slowest after ${(r.slowestRecoveryMs / 1000).toFixed(1)} s (bound ${r.recoveryBoundSeconds} s)`,
    `  fresh entry of each of the ${r.characters} characters after the bots left: the slowest took ${(r.reentrySlowestMs / 1000).toFixed(1)} s (bound ${r.boundSeconds} s)`,
    `  the harness' own event loop: longest pause ${(r.harnessLongestPauseMs / 1000).toFixed(1)} s`,
    `  violations: ${violations === 0 ? 'none' : violations}`,
  ];
  for (const v of r.violations) {
    lines.push(`    ✗ ${v.kind}: ${v.count}`);
    for (const example of v.examples) lines.push(`        ${example}`);
  }
  lines.push(`  verdict: ${violations === 0 ? 'PASS' : 'FAIL'}`);
  if (r.logDir) lines.push(`  server logs: ${r.logDir}`);
  return lines.join('\n');
}
