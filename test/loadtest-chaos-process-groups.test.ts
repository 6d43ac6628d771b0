/**
 * The chaos harness' signals (loadtest/lib/chaos/process-groups.ts): a stall or a kill signals a server's whole
 * process group, and never the group of a child that has exited — its pid may belong to another process by then
 * (pids wrap at 32,768 on this machine), which a SIGSTOP would freeze instead.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { ProcessGroups } from '../loadtest/lib/chaos/process-groups.ts';

describe('the chaos harness\' process-group signals', () => {
  // Called without an instance: the constructor installs the harness' exit handlers, which a test must not.
  const signal = ProcessGroups.prototype.signal;

  it('signals a live child\'s group, and never an exited child\'s', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { detached: true, stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    const sent: Array<[number, string]> = [];
    const kill = process.kill;
    process.kill = ((pid: number, sig: string) => {
      sent.push([pid, sig]);
      return kill(pid, sig);
    }) as typeof process.kill;
    try {
      assert.equal(signal.call(undefined, child, 'SIGKILL'), true);
      await new Promise((resolve) => child.once('exit', resolve));
      assert.deepEqual(sent, [[-child.pid!, 'SIGKILL']]);
      assert.equal(signal.call(undefined, child, 'SIGSTOP'), false, 'an exited child is not signalled');
      assert.equal(signal.call(undefined, child, 'SIGCONT'), false);
      assert.deepEqual(sent, [[-child.pid!, 'SIGKILL']], 'no signal went to the pid it had');
    } finally {
      process.kill = kill;
    }
  });
});
