/**
 * The entry storm in a process of its own (loadtest/storm-bench.ts): thousands of sockets opened at once hold the
 * event loop that opens them, and the walkers whose latency the benchmark measures must not share it. Talks to its
 * parent over IPC: `start` (the logins), then `mark` (the drain begins: joins from now on are counted, and the count
 * is sent every 250 ms), then `report` (every outcome), then `stop`.
 */
import { StormEntry, type StormOutcome } from './storm-entry.ts';

export interface StormStart {
  wsUrl: string;
  world: number;
  timeoutMs: number;
  entries: Array<{ name: string; token: string; characterId: string; queue: boolean }>;
}

export type ToStorm = { start: StormStart } | { mark: true } | { report: true } | { stop: true };
export type FromStorm = { answered: true } | { joinedSinceMark: number } | { outcomes: StormOutcome[] };

const bots: StormEntry[] = [];
let marker: NodeJS.Timeout | undefined;
const send = (message: FromStorm) => process.send!(message);

process.on('message', (message: ToStorm) => {
  if ('start' in message) {
    const { wsUrl, world, timeoutMs, entries } = message.start;
    for (const entry of entries) bots.push(new StormEntry(entry.name, entry.queue));
    void Promise.all(bots.map((bot, i) => bot.start(wsUrl, { token: entries[i].token, characterId: entries[i].characterId, world }, timeoutMs)))
      .then(() => send({ answered: true }));
  } else if ('mark' in message) {
    const since = Date.now();
    marker = setInterval(() => send({ joinedSinceMark: bots.filter((bot) => (bot.outcome.joinedAt ?? 0) >= since).length }), 250);
  } else if ('report' in message) {
    send({ outcomes: bots.map((bot) => bot.outcome) });
  } else {
    clearInterval(marker);
    for (const bot of bots) bot.stop();
    setTimeout(() => process.exit(0), 500);
  }
});
