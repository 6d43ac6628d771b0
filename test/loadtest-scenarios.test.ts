import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { levelOneNodes, runGatherers } from '../loadtest/lib/gatherer-scenario.ts';
import { loadBundledWorld } from '../loadtest/lib/game-data.ts';
import { runRestPollers } from '../loadtest/lib/rest-poller-scenario.ts';
import { formatSummary, ScenarioMeter } from '../loadtest/lib/scenario-meter.ts';
import { runTraders } from '../loadtest/lib/trader-scenario.ts';

// Short forms of `npm run loadtest -- <scenario>`: each starts the real server, runs a few bots and must report
// work done and no errors.
describe('load scenarios (short runs) @db', function () {
  this.timeout(120_000);
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);

  it('traders complete full two-screen trades', async () => {
    const summary = await runTraders({ clients: 4, durationSeconds: 3, log });
    assert.equal(summary.connected, 4, lines.join('\n'));
    assert.ok(summary.operations > 0, 'trades completed');
    assert.equal(summary.errors, 0, JSON.stringify(summary.errorsByCode));
    assert.ok(summary.latencyP99Ms >= summary.latencyP50Ms);
    assert.ok(formatSummary(summary).some((line) => line.includes('trades completed')));
  });

  it('gatherers gather at level-1 nodes with seeded tools', async () => {
    const { nodes, tools } = levelOneNodes(loadBundledWorld());
    assert.ok(nodes.some((n) => n.resourceId === 'tree'));
    assert.ok(tools.includes('bronze_hatchet'));
    const summary = await runGatherers({ clients: 6, durationSeconds: 8, log });
    assert.equal(summary.connected, 6, lines.join('\n'));
    assert.ok(summary.operations > 0, `items gathered: ${JSON.stringify(summary)}`);
    assert.ok((summary.counts['gather actions'] ?? 0) > 0);
    assert.equal(summary.errors, 0, JSON.stringify(summary.errorsByCode));
  });

  it('rest pollers read every agent route with agent tokens', async () => {
    const summary = await runRestPollers({ clients: 3, durationSeconds: 3, intervalMs: 0, log });
    assert.equal(summary.connected, 3, lines.join('\n'));
    assert.equal(summary.errors, 0, JSON.stringify(summary.errorsByCode));
    assert.deepEqual(Object.keys(summary.byLabel ?? {}).sort(), [
      'GET /api/agents/:agentId/goal', 'GET /api/characters/:id/position', 'GET /api/characters/:id/skills', 'GET /api/v1/player', 'GET /api/v1/world',
    ]);
    assert.ok(Object.values(summary.byLabel!).every((route) => route.count > 0));
  });
});

describe('ScenarioMeter', () => {
  it('prints progress lines while running and stops counting at the end of the window', async () => {
    const meter = new ScenarioMeter('demo', 'things', 'a → b');
    const lines: string[] = [];
    meter.begin();
    meter.endAfter(0.1);
    const stop = meter.progress((line) => lines.push(line), 20);
    meter.done(5);
    meter.done(7, 'x');
    meter.error('BAD');
    await sleep(60);
    assert.ok(lines.length >= 1);
    assert.match(lines[0], /\[demo\] .* things 2 .* errors 1/);
    await sleep(80);
    meter.done(1);
    stop();
    const summary = meter.summary(1, 1, []);
    assert.equal(summary.operations, 2, 'work after the window is not counted');
    assert.deepEqual(summary.errorsByCode, { BAD: 1 });
    assert.ok(summary.seconds >= 0.1 && summary.seconds < 0.2);
    assert.equal(summary.byLabel?.x.count, 1);
  });
});
