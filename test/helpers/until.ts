/** Waiting in tests for something the server does in its own time. */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves once `check` holds, asking every `everyMs`; rejects naming `what` once `timeoutMs` has passed. Checks that
 * query the database ask less often (pass 100 ms or so).
 */
export async function until(check: () => boolean | Promise<boolean>, what = 'the condition', timeoutMs = 10_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(everyMs);
  }
}
