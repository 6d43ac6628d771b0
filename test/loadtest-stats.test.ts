import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpLoad } from '../loadtest/lib/http-load.ts';
import { median, Samples } from '../loadtest/lib/stats.ts';

describe('load-test latency samples (HDR histogram)', () => {
  it('gives percentiles within the histogram\'s 3 significant figures, in milliseconds', () => {
    const samples = new Samples();
    // 1.000 … 1000.000 ms, shuffled: the order of arrival does not matter.
    const values = Array.from({ length: 1000 }, (_, i) => (i + 1) * 1.0);
    for (let i = values.length - 1; i > 0; i--) {
      const j = (i * 7919) % (i + 1);
      [values[i], values[j]] = [values[j], values[i]];
    }
    for (const v of values) samples.add(v);
    assert.equal(samples.count, 1000);
    for (const [pct, expected] of [[50, 500], [90, 900], [99, 990], [100, 1000]] as const) {
      assert.ok(Math.abs(samples.p(pct) - expected) <= expected * 0.001, `p${pct} = ${samples.p(pct)}, expected ${expected}`);
    }
    assert.ok(Math.abs(samples.p(50) - 500) < 1);
  });

  it('takes the median of an odd and an even count without reordering the input', () => {
    const values = [227.2, 134.6, 172.5];
    assert.equal(median(values), 172.5);
    assert.deepEqual(values, [227.2, 134.6, 172.5]);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.ok(Number.isNaN(median([])));
  });

  it('keeps sub-millisecond resolution, clamps what it cannot hold, and resets', () => {
    const samples = new Samples();
    samples.add(0.25);
    samples.add(0);
    samples.add(Number.POSITIVE_INFINITY);
    assert.equal(samples.count, 3);
    assert.ok(Math.abs(samples.p(50) - 0.25) < 0.001, String(samples.p(50)));
    assert.equal(samples.p(1), 0.001, 'zero is recorded as the smallest value, 1 µs');
    assert.ok(samples.p(100) >= 3_590_000, 'an infinite latency is recorded as the largest value, one hour');
    samples.reset();
    assert.equal(samples.count, 0);
    assert.ok(Number.isNaN(samples.p(50)));
  });
});

describe('the HTTP load generator (autocannon)', function () {
  this.timeout(20_000);

  async function serve(status: number): Promise<{ url: string; close(): void; served(): number }> {
    let served = 0;
    const server = http.createServer((_req, res) => {
      served++;
      res.writeHead(status, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close(), served: () => served };
  }

  it('drives requests over keep-alive connections and reports throughput, percentiles and failures', async () => {
    const ok = await serve(200);
    const failing = await serve(503);
    try {
      const good = await httpLoad(ok.url, { concurrency: 4, durationSeconds: 1, headers: { Authorization: 'Bearer x' } });
      assert.ok(good.requestsPerSecond > 0 && ok.served() > 0, JSON.stringify(good));
      assert.equal(good.errors, 0);
      assert.ok(good.p50Ms >= 0 && good.p99Ms >= good.p50Ms, JSON.stringify(good));
      const bad = await httpLoad(failing.url, { concurrency: 2, durationSeconds: 1 });
      assert.ok(bad.errors > 0 && bad.errors >= failing.served() - 2, JSON.stringify({ bad, served: failing.served() }));
    } finally {
      ok.close();
      failing.close();
    }
  });
});
