/** The benchmarks' HTTP probe runs in its own process and reports each URL's latency and failures. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startProbeProcess } from '../loadtest/lib/probe-process.ts';

describe('load generator: the probe process', function () {
  this.timeout(30_000);

  it('polls each URL until stopped, counting the failed answers apart from the good ones', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/slow') setTimeout(() => res.end('ok'), 40);
      else res.writeHead(req.url === '/ok' ? 200 : 500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const probe = startProbeProcess([`${base}/ok`, `${base}/broken`, `${base}/slow`], 20);
      await sleep(1_500);
      const [ok, broken, slow] = await probe.stop();
      assert.ok(ok.count >= 3, `polled ${ok.count} times`);
      assert.equal(ok.failures, 0);
      assert.equal(broken.failures, broken.count);
      assert.ok(broken.count >= 3);
      assert.ok(slow.p50Ms >= 40, `the slow route's latency is measured (${slow.p50Ms} ms)`);
    } finally {
      server.close();
    }
  });
});
