/** The benchmark's tick figures are read back from the server's own histograms: check the round trip. */
import assert from 'node:assert/strict';
import { inboundWaitText, latenessText, tickFigures } from '../loadtest/lib/tick-figures.ts';
import { GameMetrics } from '../src/observability/metrics.ts';

describe('benchmark tick figures from the game_tick_* series', () => {
  it('gives the mean per phase, the lateness p99 bucket and the bytes per player of the window between two scrapes', async () => {
    const metrics = new GameMetrics({ playersOnline: () => 0, rooms: () => 0 });
    const tick = (ms: number, lateMs: number, bytes: number, players: number) => metrics.tickPhases({
      work: ms / 1000, interest: (2 * ms) / 1000, encode: ms / 1000, send: (3 * ms) / 1000, patch: 0,
      latenessSeconds: lateMs / 1000, jsonBytes: bytes, jsonPlayers: players,
      // Two players sampled: their naive snapshots 40 times, their bit-packed bound a tenth of the bytes sent.
      sampledPlayers: 2, naiveSnapshotBytes: 2 * 40 * (bytes / players), bitpackedBoundBytes: 2 * (bytes / players) / 10,
    });
    tick(100, 500, 1_000_000, 10); // before the window: must not count
    const before = await metrics.registry.metrics();
    for (let i = 0; i < 99; i++) tick(2, 1, 3_000, 10);
    tick(2, 40, 3_000, 10);
    const after = await metrics.registry.metrics();
    const figures = tickFigures(before, after);
    assert.equal(figures.ticks, 100);
    assert.deepEqual(figures.phaseMeanMs, { work: 2, interest: 4, encode: 2, send: 6, patch: 0 });
    assert.equal(figures.bytesPerPlayerPerTick, 300);
    assert.equal(figures.naiveSnapshotBytesPerPlayerTick, 12_000);
    assert.equal(figures.bitpackedBoundBytesPerPlayerTick, 30);
    assert.equal(figures.latenessP99Ms, 1, '99 of 100 ticks were at most 1 ms late');
    metrics.close();
  });

  it('gives the /ws frames\' inbound wait p99 bucket of the window, and says it as the walker text does', async () => {
    const metrics = new GameMetrics({ playersOnline: () => 0, rooms: () => 0 });
    metrics.observeInboundWait(0.9); // before the window: must not count
    const before = await metrics.registry.metrics();
    for (let i = 0; i < 198; i++) metrics.observeInboundWait(0.0003);
    metrics.observeInboundWait(0.015);
    metrics.observeInboundWait(0.3);
    const figures = tickFigures(before, await metrics.registry.metrics());
    assert.equal(figures.inboundFrames, 200);
    assert.equal(figures.inboundWaitP99Ms, 0.5, '198 of 200 frames waited at most 0.5 ms');
    assert.match(inboundWaitText(figures), /inbound queue p99 ≤ 0\.5 ms/);
    assert.equal(inboundWaitText({ inboundFrames: 0, inboundWaitP99Ms: null }), '');
    assert.equal(inboundWaitText({}), '', 'runs recorded before the series');
    assert.match(inboundWaitText({ inboundFrames: 5, inboundWaitP99Ms: null }), /beyond the largest bucket/);
    metrics.close();
  });

  it('has no figures for a window without ticks', async () => {
    const metrics = new GameMetrics({ playersOnline: () => 0, rooms: () => 0 });
    const text = await metrics.registry.metrics();
    const figures = tickFigures(text, text);
    assert.equal(figures.ticks, 0);
    assert.equal(figures.latenessP99Ms, null);
    assert.equal(figures.bytesPerPlayerPerTick, null);
    assert.equal(figures.naiveSnapshotBytesPerPlayerTick, null);
    assert.equal(figures.bitpackedBoundBytesPerPlayerTick, null);
    assert.equal(latenessText(figures), 'no ticks');
    metrics.close();
  });

  it('says a lateness beyond the largest bucket in words (not "≤ Infinity ms"), also when read back from JSON', async () => {
    const metrics = new GameMetrics({ playersOnline: () => 0, rooms: () => 0 });
    const before = await metrics.registry.metrics();
    for (let i = 0; i < 10; i++) {
      metrics.tickPhases({
        work: 0, interest: 0, encode: 0, send: 0, patch: 0, latenessSeconds: 3_600, jsonBytes: 0, jsonPlayers: 0,
        sampledPlayers: 0, naiveSnapshotBytes: 0, bitpackedBoundBytes: 0,
      });
    }
    const figures = tickFigures(before, await metrics.registry.metrics());
    assert.equal(figures.latenessP99Ms, Infinity);
    assert.equal(latenessText(figures), 'beyond the largest bucket');
    // docs/benchmarks.json keeps Infinity as null; read back, it still says the same.
    assert.equal(latenessText(JSON.parse(JSON.stringify(figures))), 'beyond the largest bucket');
    assert.equal(latenessText({ ticks: 5, latenessP99Ms: 10 }), '≤ 10 ms');
    metrics.close();
  });
});
