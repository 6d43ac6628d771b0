/**
 * The cluster's world lock (src/cluster/cluster.ts), which keeps two processes from opening the standing worlds at
 * once, on the local Redis: one holder at a time; a lock left by a holder that died expires within seconds; a
 * holder that works longer than the lock's time to live keeps it (for 15 s at most); a holder releases only its own
 * lock. A lock that never expires would keep every process from reopening the standing worlds (and from starting).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.ts';
import { createCluster, type Cluster } from '../../src/cluster/cluster.ts';
import { createLogger } from '../../src/logger.ts';
import { connectTestRedis, dropKeysAndDisconnect, noRedisSkipNote, TEST_REDIS_URL } from '../helpers/redis.ts';
import { testEnv } from '../helpers/server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the world lock on Redis', function () {
  this.timeout(30_000);
  const prefix = `test-lock-${randomUUID().slice(0, 8)}:`;
  const key = `${prefix}world-create-lock`;
  let redis: Redis | undefined;
  const clusters: Cluster[] = [];

  function cluster(): Cluster {
    const { config } = loadConfig(testEnv({ REDIS_URL: TEST_REDIS_URL, CLUSTER_KEY_PREFIX: prefix }));
    const made = createCluster(config, createLogger(config));
    clusters.push(made);
    return made;
  }

  before(async function () {
    redis = await connectTestRedis();
    if (!redis) {
      noRedisSkipNote('the world lock suite');
      return this.skip();
    }
  });

  after(async () => {
    for (const made of clusters) await made.stop();
    if (redis) await dropKeysAndDisconnect(redis, `${prefix}*`);
  });

  it('lets one holder in at a time, and the next one in once it is done', async () => {
    const [a, b] = [cluster(), cluster()];
    let release!: () => void;
    const held = a.withWorldLock(() => new Promise<string>((resolve) => (release = () => resolve('a worked'))));
    await sleep(200);
    assert.equal(await b.withWorldLock(async () => 'b worked'), undefined, 'refused while a holds it');
    release();
    assert.equal(await held, 'a worked');
    assert.equal(await redis!.exists(key), 0, 'released');
    assert.equal(await b.withWorldLock(async () => 'b worked'), 'b worked');
  });

  it('a lock left by a holder that died expires within 5 s, and always has a time to live', async () => {
    // What a holder killed mid-work leaves: its token, with the time to live it set when it took the lock.
    await redis!.set(key, 'a-dead-holder', 'PX', 5_000);
    const b = cluster();
    assert.equal(await b.withWorldLock(async () => 'b worked'), undefined);
    const started = Date.now();
    let got: string | undefined;
    while (got === undefined && Date.now() - started < 8_000) {
      got = await b.withWorldLock(async () => 'b worked');
      if (got === undefined) await sleep(250);
    }
    assert.equal(got, 'b worked', 'taken once the dead holder\'s lock expired');
    assert.ok(Date.now() - started <= 6_000, `within the lock's time to live (${Date.now() - started} ms)`);
  });

  it('a holder working longer than the time to live keeps the lock, and releases only its own', async () => {
    const [a, b] = [cluster(), cluster()];
    let lapse!: () => void;
    const lapsed = new Promise<void>((resolve) => (lapse = resolve));
    const held = a.withWorldLock(async () => {
      await sleep(7_000);
      assert.ok((await redis!.pttl(key)) > 0, 'the lock has a time to live while held');
      await lapsed;
      return 'a worked';
    });
    await sleep(6_000);
    assert.equal(await b.withWorldLock(async () => 'b worked'), undefined, 'still held after its first time to live');
    await sleep(1_500);
    // As if a's lock had expired (a stalled) and another holder had taken it: a's release must leave it alone.
    await redis!.set(key, 'another-holder', 'PX', 5_000);
    lapse();
    assert.equal(await held, 'a worked');
    assert.equal(await redis!.get(key), 'another-holder');
    await redis!.del(key);
  });

  it('a holder stuck at its work lets others in after 20 s at most', async function () {
    this.timeout(40_000);
    const [a, b] = [cluster(), cluster()];
    let unstick!: () => void;
    const stuck = a.withWorldLock(() => new Promise<string>((resolve) => (unstick = () => resolve('a finally worked'))));
    const started = Date.now();
    let got: string | undefined;
    while (got === undefined && Date.now() - started < 25_000) {
      await sleep(500);
      got = await b.withWorldLock(async () => 'b worked');
    }
    assert.equal(got, 'b worked');
    const waited = Date.now() - started;
    assert.ok(waited > 15_000 && waited <= 21_000, `b got in after ${waited} ms (a extends for 15 s, then it lapses within 5 s)`);
    unstick();
    assert.equal(await stuck, 'a finally worked');
  });
});
