/**
 * `traders`: pairs of /ws bots standing side by side, each pair completing full two-screen trades back to back
 * (lib/trading.ts) for the duration. Latency is a whole trade, request to both `tradeCompleted`; the swap
 * (last accept → tradeCompleted) is counted apart.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ScenarioMeter, type ScenarioSummary } from './scenario-meter.ts';
import { withScenarioServer } from './scenario-server.ts';
import { Samples, round } from './stats.ts';
import { enterPairs, seedTradingPairs, trade } from './trading.ts';
import { defaultJoinDeadlineSeconds } from './join-phase.ts';

export async function runTraders(options: { clients: number; durationSeconds: number; joinDeadlineSeconds?: number; log: (line: string) => void }): Promise<ScenarioSummary> {
  const pairCount = Math.max(1, Math.floor(options.clients / 2));
  const meter = new ScenarioMeter('traders', 'trades completed', 'tradeRequest → tradeCompleted on both sides');
  const swap = new Samples();
  return withScenarioServer({
    env: { TRADE_REQUEST_COOLDOWN_MS: '0', WS_MESSAGES_PER_SECOND: '100000', SAVE_INTERVAL: '3600' },
    seed: (db, data, config, secret) => seedTradingPairs(db, data, config, secret, pairCount),
  }, async (server, pairs) => {
    const joinDeadlineSeconds = options.joinDeadlineSeconds ?? defaultJoinDeadlineSeconds(options.clients);
    const { sockets, notJoined } = await enterPairs(server.wsUrl, pairs, { log: options.log, batch: 25, deadlineMs: joinDeadlineSeconds * 1000 });
    const connected = sockets.filter(Boolean).length;
    options.log(`  ${connected}/${pairs.length} pairs in the world; trading for ${options.durationSeconds} s`);
    let cores = NaN;
    try {
      cores = await meter.measure(server.child.pid!, options.durationSeconds, options.log, (deadline) => Promise.all(sockets.map(async (pair, i) => {
        if (!pair) return;
        const [a, b] = pair;
        while (performance.now() < deadline) {
          const started = performance.now();
          try {
            swap.add(await trade(a, b, pairs[i].a.characterId, pairs[i].b.characterId));
            meter.done(performance.now() - started);
          } catch (error) {
            meter.error((error as Error).message.replace(/^timed out waiting for .*/, 'TIMEOUT'));
            await sleep(200);
          }
        }
      })));
    } finally {
      for (const pair of sockets) pair?.forEach((s) => s.close());
    }
    meter.figure('swap p50 (ms)', round(swap.p(50), 1));
    meter.figure('swap p99 (ms)', round(swap.p(99), 1));
    return meter.summary(pairs.length * 2, connected * 2, notJoined, cores);
  });
}
