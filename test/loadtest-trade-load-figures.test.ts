/** The CPU a trade adds to a loaded world: the trading window minus the walkers-only rate, per completed trade. */
import assert from 'node:assert/strict';
import { isBackendOf } from '../loadtest/lib/postgres-backends.ts';
import { marginalCpuPerTrade, type MeasuredWindow } from '../loadtest/lib/trade-load-figures.ts';

describe('benchmark: CPU per trade under the walker load', () => {
  const window = (trading: boolean, seconds: number, server: number, trades = 0, machine = 2 * server, postgres = 0): MeasuredWindow =>
    ({ trading, trades, cpu: { seconds, server, machine, postgres } });

  it('subtracts the neighbouring walkers-only rate scaled to the trading window and divides by the trades, with the spread of either neighbour alone', () => {
    // Walkers alone: 0.8 cores before, 1.0 after (mean 0.9); the trading window is longer (25 s, the last trades overrun).
    const figures = marginalCpuPerTrade([
      window(false, 20, 16, 0, 30, 1),
      window(true, 25, 27.5, 1000, 50, 6.25),
      window(false, 20, 20, 0, 34, 1),
    ]);
    // server: 27.5 − 0.9 × 25 = 5 core-s over 1000 trades = 5 ms; against 1.0 alone 2.5 ms, against 0.8 alone 7.5 ms.
    assert.deepEqual(figures.server, { msPerTrade: 5, range: [2.5, 7.5], coresLoaded: 1.1, coresBaseline: 0.9 });
    // machine: 50 − 1.6 × 25 = 10 core-s → 10 ms; 1.7 / 1.5 alone → 7.5 / 12.5 ms.
    assert.deepEqual(figures.machine, { msPerTrade: 10, range: [7.5, 12.5], coresLoaded: 2, coresBaseline: 1.6 });
    // PostgreSQL: 6.25 − 0.05 × 25 = 5 core-s → 5 ms; both neighbours agree.
    assert.deepEqual(figures.postgres, { msPerTrade: 5, range: [5, 5], coresLoaded: 0.25, coresBaseline: 0.05 });
  });

  it('compares each trading window with its own neighbours, so a drift in the walkers\' cost cancels', () => {
    // The walkers' cost climbs 1.0 → 1.2 → 1.4 cores; each trading window adds 2 core-s over its neighbours' mean.
    const figures = marginalCpuPerTrade([
      window(false, 10, 10), window(true, 10, 13, 100), window(false, 10, 12), window(true, 10, 15, 200), window(false, 10, 14),
    ]);
    // (2 + 2) core-s over 300 trades; the first window's rate alone would have said (3 + 5) / 300 = 26.67 ms.
    assert.deepEqual(figures.server, { msPerTrade: 13.33, range: [6.67, 20], coresLoaded: 1.4, coresBaseline: 1.2 });
  });

  it('gives no figure without trades, without a walkers-only neighbour or with an empty window', () => {
    assert.ok(Number.isNaN(marginalCpuPerTrade([window(false, 10, 5), window(true, 10, 6, 0), window(false, 10, 5)]).server.msPerTrade));
    assert.ok(Number.isNaN(marginalCpuPerTrade([window(true, 10, 6, 100), window(true, 10, 6, 100)]).machine.msPerTrade));
    assert.ok(Number.isNaN(marginalCpuPerTrade([window(false, 0, 5), window(true, 10, 6, 100)]).postgres.msPerTrade));
  });

  it('counts a PostgreSQL backend for its own database only, never the shared background processes', () => {
    const db = 'bench_trades_load_0123456789ab';
    assert.ok(isBackendOf(`postgres: 15/main: postgres ${db} 127.0.0.1(51234) idle                    `, db));
    assert.ok(isBackendOf(`postgres: postgres ${db} [local] COMMIT`, db), 'a server without cluster_name in its titles');
    assert.ok(!isBackendOf(`postgres: 15/main: postgres ${db}_other 127.0.0.1(51234) idle`, db));
    assert.ok(!isBackendOf('postgres: 15/main: postgres test 127.0.0.1(51234) idle', db));
    assert.ok(!isBackendOf('postgres: 15/main: walwriter   ', db));
    assert.ok(!isBackendOf('/usr/lib/postgresql/15/bin/postgres\0-D\0/var/lib/postgresql/15/main\0', db));
    assert.ok(!isBackendOf(`node\0loadtest/trades-under-load.ts\0${db}\0`, db));
  });
});
