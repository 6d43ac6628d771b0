/**
 * An entry storm in a process of its own (loadtest/lib/storm-child.ts), for the benchmarks that send one
 * (storm-bench.ts, login-cost-bench.ts): `answered` resolves once every login had its first answer.
 */
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StormOutcome } from './storm-entry.ts';
import type { FromStorm, StormStart, ToStorm } from './storm-child.ts';

/** The storm's process' niceness. */
export const STORM_NICE = 19;

/** loadtest/lib/storm-child.ts, started with the logins: resolves `answered` once each had its first answer. */
export function startStorm(start: StormStart) {
  const child = fork(path.join(import.meta.dirname, 'storm-child.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // The storm stands for clients on other machines: on these two shared cores it gets the time the server, its
  // database and the measured walkers leave (its own slowness only lengthens the answer times it records).
  os.setPriority(child.pid!, STORM_NICE);
  const tell = (message: ToStorm) => child.connected && child.send(message);
  let joined = 0;
  let reported: ((outcomes: StormOutcome[]) => void) | undefined;
  let answeredNow: () => void = () => {};
  const answered = new Promise<void>((resolve) => (answeredNow = resolve));
  child.on('message', (message: FromStorm) => {
    if ('answered' in message) answeredNow();
    else if ('joinedSinceMark' in message) joined = message.joinedSinceMark;
    else reported?.(message.outcomes);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => answeredNow());
  tell({ start });
  return {
    answered,
    mark: () => tell({ mark: true }),
    joinedSinceMark: () => joined,
    report: () => new Promise<StormOutcome[]>((resolve) => {
      reported = resolve;
      tell({ report: true });
    }),
    stop: async () => {
      tell({ stop: true });
      await Promise.race([exited, sleep(5_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
