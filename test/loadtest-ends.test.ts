/**
 * `npm run loadtest` ends within its bounds whatever the server does, and stops its server when it is killed
 * (issue #39 item 5, docs/loadtest.md "Every run ends"). Before: 4,000 walkers against one process left entries
 * hanging, the tool never finished (killed at 590 s with its first line printed) and once left its server running.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEADLINE_REASON, describeNotJoined, joinPhase } from '../loadtest/lib/join-phase.ts';
import { processAlive as alive } from '../loadtest/lib/process-monitor.ts';
import { ROOT } from '../loadtest/lib/server-process.ts';

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/** `npm run loadtest -- …` as the README gives it (run.ts under the project's Node), with its output collected. */
function loadtest(args: string[]): { child: ChildProcess; output: () => string; serverPid: Promise<number>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['loadtest/run.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  let found: (pid: number) => void;
  const serverPid = new Promise<number>((resolve) => (found = resolve));
  const read = (chunk: Buffer) => {
    text += chunk.toString();
    const match = /game server: pid (\d+)/.exec(text);
    if (match) found(Number(match[1]));
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, serverPid, exited };
}

describe('a load run ends within its bounds', function () {
  this.timeout(180_000);
  const stray: number[] = [];

  after(() => {
    for (const pid of stray) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  describe('the join phase (joinPhase)', () => {
    it('ends at its deadline whatever the joins do, and names every bot that never joined with why', async () => {
      const started: string[] = [];
      const lateJoin: { signal?: AbortSignal; resolve?: () => void } = {};
      const names = ['ok1', 'refused', 'hangs', 'late', 'ok2', 'untried1', 'untried2'];
      const startedAt = performance.now();
      const outcome = await joinPhase(names, {
        name: (name) => name,
        deadlineMs: 300,
        batch: 5,
        log: () => {},
        start: async (name, signal) => {
          started.push(name);
          if (name.startsWith('ok')) return;
          if (name === 'refused') throw new Error('WORLD_FULL');
          if (name === 'late') {
            lateJoin.signal = signal;
            return new Promise<void>((resolve) => (lateJoin.resolve = resolve));
          }
          return new Promise<void>(() => {});
        },
      });
      const tookMs = performance.now() - startedAt;
      assert.ok(tookMs < 1_000, `the phase ended ${Math.round(tookMs)} ms after it started (deadline 300 ms)`);
      assert.equal(outcome.joined, 2);
      assert.deepEqual(started, ['ok1', 'refused', 'hangs', 'late', 'ok2'], 'no bot is tried after the deadline');
      assert.deepEqual(outcome.notJoined, [
        { name: 'refused', reason: 'WORLD_FULL' },
        { name: 'hangs', reason: DEADLINE_REASON },
        { name: 'late', reason: DEADLINE_REASON },
        { name: 'untried1', reason: DEADLINE_REASON },
        { name: 'untried2', reason: DEADLINE_REASON },
      ]);
      assert.equal(lateJoin.signal?.aborted, true, 'a join given up is told, so that one completing later can close');
      lateJoin.resolve?.();
      assert.deepEqual(describeNotJoined(outcome.notJoined, 2), {
        count: 5, byReason: { WORLD_FULL: 1, [DEADLINE_REASON]: 4 }, names: ['refused', 'hangs'],
      });
    });

    it('does not wait for its deadline when every bot is in', async () => {
      const startedAt = performance.now();
      const outcome = await joinPhase([1, 2, 3], { name: String, deadlineMs: 60_000, log: () => {}, start: async () => {} });
      assert.deepEqual(outcome, { joined: 3, notJoined: [] });
      assert.ok(performance.now() - startedAt < 1_000);
    });
  });

  it('walkers against a server stalled through the join phase: the run ends, naming the walkers that never joined', async () => {
    const run = loadtest(['walkers', '--clients', '40', '--duration', '2', '--join-deadline', '4']);
    const serverPid = await Promise.race([run.serverPid, run.exited.then(() => { throw new Error(run.output()); })]);
    stray.push(serverPid);
    // Slow rather than dead: stopped for the join phase, then let go.
    process.kill(serverPid, 'SIGSTOP');
    const stalledAt = Date.now();
    await sleep(8_000);
    process.kill(serverPid, 'SIGCONT');
    const code = await Promise.race([run.exited, sleep(90_000).then(() => 'still running')]);
    const output = run.output();
    assert.equal(code, 0, output);
    assert.ok(Date.now() - stalledAt < 60_000, output);
    assert.match(output, /the join phase ended at its deadline \(4 s\)/);
    const line = /never joined\s+(\d+) (\{[^}]*\}): (.*)/.exec(output);
    assert.ok(line, `a "never joined" line in the summary:\n${output}`);
    const count = Number(line[1]);
    assert.ok(count >= 30 && count <= 40, `${count} of 40 never joined while the server was stopped`);
    assert.equal(JSON.parse(line[2])[DEADLINE_REASON], count);
    assert.match(line[3], /^W[0-9a-z]+/, 'named by their characters');
    assert.ok(await gone(serverPid, 5_000), 'the server is stopped at the end of the run');
  });

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`stops its server when it is killed (${signal})`, async () => {
      const run = loadtest(['walkers', '--clients', '5', '--duration', '120']);
      const serverPid = await Promise.race([run.serverPid, run.exited.then(() => { throw new Error(run.output()); })]);
      stray.push(serverPid);
      await sleep(500);
      assert.ok(alive(serverPid));
      run.child.kill(signal);
      await run.exited;
      assert.ok(await gone(serverPid, 20_000), `the server (pid ${serverPid}) stopped after its load tool was killed with ${signal}`);
    });
  }
});
