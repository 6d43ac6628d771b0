/** src/settled-within.ts: a bounded wait for a promise to settle. */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { settledWithin } from '../src/settled-within.ts';

describe('settledWithin', () => {
  it('is true for a promise that fulfils or rejects in time, and does not wait for the bound', async () => {
    const startedAt = Date.now();
    assert.equal(await settledWithin(sleep(10).then(() => 'x'), 5_000), true);
    assert.equal(await settledWithin(sleep(10).then(() => Promise.reject(new Error('no'))), 5_000), true);
    assert.ok(Date.now() - startedAt < 1_000);
  });

  it('is false once the bound has passed for a promise that never settles', async () => {
    const startedAt = Date.now();
    assert.equal(await settledWithin(new Promise(() => {}), 40), false);
    assert.ok(Date.now() - startedAt >= 35);
  });
});
