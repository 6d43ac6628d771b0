/**
 * The join phase of a load scenario (docs/loadtest.md "Every run ends"): bots enter a batch at a time until every
 * one is in or the phase's deadline passes. Whatever the server does (full, saturated, stalled, gone), the phase
 * ends by its deadline: a bot still joining then is given up (its `signal` aborts, so a join that completes later
 * closes its connection instead of joining the run), and a bot not yet tried is not tried. The bots that never
 * joined are counted and named, with why.
 */

export interface NotJoined {
  name: string;
  /** The refusal's code or the error's message; "join deadline" for a bot given up or never tried. */
  reason: string;
}

export interface JoinOutcome {
  joined: number;
  notJoined: NotJoined[];
}

export interface JoinPhaseOptions<T> {
  /** Brings one bot in; `signal` aborts when the phase gives it up. */
  start(item: T, signal: AbortSignal): Promise<void>;
  /** How the summary names the bot (its character's name). */
  name(item: T): string;
  /** The phase ends this long after it starts, every bot in or not. */
  deadlineMs: number;
  batch?: number;
  log(line: string): void;
}

export const DEADLINE_REASON = 'join deadline';

export async function joinPhase<T>(items: readonly T[], options: JoinPhaseOptions<T>): Promise<JoinOutcome> {
  const batch = options.batch ?? 50;
  const phase = new AbortController();
  const timer = setTimeout(() => phase.abort(), options.deadlineMs);
  const deadline = new Promise<never>((_, reject) => phase.signal.addEventListener('abort', () => reject(new Error(DEADLINE_REASON)), { once: true }));
  deadline.catch(() => {});
  const outcome: JoinOutcome = { joined: 0, notJoined: [] };
  let reported = false;
  try {
    for (let i = 0; i < items.length; i += batch) {
      const slice = items.slice(i, i + batch);
      if (phase.signal.aborted) {
        outcome.notJoined.push(...slice.map((item) => ({ name: options.name(item), reason: DEADLINE_REASON })));
        continue;
      }
      const results = await Promise.allSettled(slice.map((item) => Promise.race([options.start(item, phase.signal), deadline])));
      results.forEach((result, k) => {
        if (result.status === 'fulfilled') {
          outcome.joined++;
          return;
        }
        const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
        outcome.notJoined.push({ name: options.name(slice[k]), reason });
        if (!reported && reason !== DEADLINE_REASON) {
          reported = true;
          options.log(`  join failure: ${reason}`);
        }
      });
    }
  } finally {
    clearTimeout(timer);
  }
  if (phase.signal.aborted) options.log(`  the join phase ended at its deadline (${Math.round(options.deadlineMs / 1000)} s): ${outcome.joined}/${items.length} joined`);
  return outcome;
}

/** The bots that never joined, for a summary: how many, by reason, and the first names. */
export function describeNotJoined(notJoined: readonly NotJoined[], shown = 20): { count: number; byReason: Record<string, number>; names: string[] } {
  const byReason: Record<string, number> = {};
  for (const bot of notJoined) byReason[bot.reason] = (byReason[bot.reason] ?? 0) + 1;
  return { count: notJoined.length, byReason, names: notJoined.slice(0, shown).map((bot) => bot.name) };
}

/** The join phase's deadline for `clients` bots when none is given: a minute, or a second per 25 bots when longer. */
export function defaultJoinDeadlineSeconds(clients: number): number {
  return Math.max(60, Math.ceil(clients / 25));
}
