/** The benchmark's CPU meter splits a process' CPU into its own code and the kernel's work on its behalf. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { CpuMeter, cpuSeconds, cpuTimes } from '../loadtest/lib/process-monitor.ts';

/** A child that spins for `ms` in JavaScript (user time) or in reads of /dev/zero (the kernel fills the buffer). */
function busyChild(kind: 'compute' | 'kernel', ms: number): ChildProcess {
  const body = kind === 'compute'
    ? `const end = Date.now() + ${ms}; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1);`
    : `const fs = require('node:fs'); const fd = fs.openSync('/dev/zero', 'r'); const b = Buffer.alloc(1 << 20);
       const end = Date.now() + ${ms}; while (Date.now() < end) fs.readSync(fd, b);`;
  return spawn(process.execPath, ['-e', `${body}; setTimeout(() => {}, 60000);`], { stdio: 'ignore' });
}

async function measure(kind: 'compute' | 'kernel'): Promise<{ cores: number; kernelCores: number }> {
  const child = busyChild(kind, 800);
  try {
    const meter = new CpuMeter(child.pid!);
    meter.start();
    await new Promise((resolve) => setTimeout(resolve, 900));
    const cores = meter.stop();
    return { cores, kernelCores: meter.kernelCores };
  } finally {
    child.kill();
    await once(child, 'exit');
  }
}

describe('benchmark CPU meter', () => {
  it('reads user and system time that add up to the total', () => {
    const times = cpuTimes(process.pid);
    assert.ok(times.user > 0);
    assert.ok(times.system >= 0);
    assert.ok(Math.abs(cpuSeconds(process.pid) - (times.user + times.system)) < 0.05);
  });

  it('puts a computing process in user time and one reading /dev/zero mostly in the kernel', async function () {
    this.timeout(20_000);
    const compute = await measure('compute');
    assert.ok(compute.cores > 0.3, `a spinning child uses CPU (${compute.cores})`);
    assert.ok(compute.kernelCores < compute.cores / 4, `computing is user time (${compute.kernelCores} of ${compute.cores})`);
    const reads = await measure('kernel');
    assert.ok(reads.cores > 0.3, `a reading child uses CPU (${reads.cores})`);
    assert.ok(reads.kernelCores > reads.cores / 2, `reading /dev/zero is kernel time (${reads.kernelCores} of ${reads.cores})`);
  });
});
