/** The CPU a trade adds to a loaded world: the trading window minus the walkers-only rate, per completed trade. */
import assert from 'node:assert/strict';
import { isBackendOf } from '../loadtest/lib/postgres-backends.ts';
import { marginalCpuPerTrade, type CpuWindow } from '../loadtest/lib/trade-load-figures.ts';

describe('benchmark: CPU per trade under the walker load', () => {
  it('subtracts the walkers-only rate scaled to the trading window and divides by the trades, with the spread of either baseline alone', () => {
    // Walkers alone: 0.8 cores before, 1.0 after (mean 0.9); the trading window is longer (25 s, the last trades overrun).
    const before: CpuWindow = { seconds: 20, server: 16, machine: 30, postgres: 1 };
    const after: CpuWindow = { seconds: 20, server: 20, machine: 34, postgres: 1 };
    const trading: CpuWindow = { seconds: 25, server: 27.5, machine: 50, postgres: 6.25 };
    const figures = marginalCpuPerTrade(trading, [before, after], 1000);
    // server: 27.5 − 0.9 × 25 = 5 core-s over 1000 trades = 5 ms; against 0.8 alone 7.5 ms, against 1.0 alone 2.5 ms.
    assert.deepEqual(figures.server, { msPerTrade: 5, range: [2.5, 7.5], coresLoaded: 1.1, coresBaseline: 0.9 });
    // machine: 50 − 1.6 × 25 = 10 core-s → 10 ms; 1.5 / 1.7 alone → 12.5 / 7.5 ms.
    assert.deepEqual(figures.machine, { msPerTrade: 10, range: [7.5, 12.5], coresLoaded: 2, coresBaseline: 1.6 });
    // PostgreSQL: 6.25 − 0.05 × 25 = 5 core-s → 5 ms; both baselines agree.
    assert.deepEqual(figures.postgres, { msPerTrade: 5, range: [5, 5], coresLoaded: 0.25, coresBaseline: 0.05 });
  });

  it('gives no figure without trades or without a baseline window', () => {
    const window: CpuWindow = { seconds: 10, server: 5, machine: 8, postgres: 1 };
    assert.ok(Number.isNaN(marginalCpuPerTrade(window, [window], 0).server.msPerTrade));
    assert.ok(Number.isNaN(marginalCpuPerTrade(window, [], 100).machine.msPerTrade));
    assert.ok(Number.isNaN(marginalCpuPerTrade(window, [{ ...window, seconds: 0 }], 100).postgres.msPerTrade));
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
