/** A world's lease as its holder counts it (rooms/world/world-lease.ts), on a manual clock. */
import assert from 'node:assert/strict';
import { WorldLease, type RenewLease } from '../../rooms/world/world-lease.ts';

describe('world lease: held, suspended, lost', () => {
  let now = 0;
  let answer: 'renewed' | 'gone' | 'unreachable' = 'renewed';
  let lost: string[] = [];
  const renew: RenewLease = async () => {
    if (answer === 'unreachable') throw new Error('connection refused');
    return answer === 'renewed';
  };
  const lease = () => new WorldLease({ world: 1, epoch: 7, leaseSeconds: 10, acquiredAt: now, renew, onLost: (reason) => lost.push(reason), now: () => now });

  beforeEach(() => {
    now = 1_000;
    answer = 'renewed';
    lost = [];
  });

  it('is held for less than the lease time after it was taken, counted from when the statement was sent', () => {
    const held = lease();
    assert.equal(held.state, 'held');
    now += 8_999;
    assert.equal(held.state, 'held');
    now += 1;
    assert.equal(held.state, 'suspended', 'the last tenth of the lease time is left to PostgreSQL\'s clock');
    assert.throws(() => held.assertHeld(), (error: { code?: string }) => error.code === 'WORLD_UNAVAILABLE');
    assert.deepEqual(held.fence(), { world: 1, epoch: 7 });
  });

  it('a renewal in time keeps it held, from the time the renewal was sent', async () => {
    const held = lease();
    now += 3_000;
    await held.renew();
    now += 8_999;
    assert.equal(held.state, 'held');
    now += 1;
    assert.equal(held.state, 'suspended');
    await held.renew();
    assert.equal(held.state, 'held', 'a suspended lease that PostgreSQL still keeps comes back');
  });

  it('a renewal that finds the lease gone loses it for good, once', async () => {
    const held = lease();
    answer = 'gone';
    await held.renew();
    assert.equal(held.state, 'lost');
    assert.deepEqual(lost, ['the lease lapsed or was taken over']);
    answer = 'renewed';
    await held.renew();
    assert.equal(held.state, 'lost', 'never comes back');
    assert.equal(lost.length, 1);
  });

  it('unreachable: suspended after the lease time, lost after a second one', async () => {
    const held = lease();
    answer = 'unreachable';
    now += 5_000;
    await held.renew();
    assert.equal(held.state, 'held');
    now += 5_000;
    await held.renew();
    assert.equal(held.state, 'suspended');
    now += 9_000;
    held.check();
    assert.equal(held.state, 'suspended');
    now += 1_000;
    held.check();
    assert.equal(held.state, 'lost');
    assert.deepEqual(lost, ['the lease could not be renewed']);
  });
});
