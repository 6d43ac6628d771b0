import assert from 'node:assert/strict';
import { AdminCodeGate } from '../../src/auth/admin-code.ts';
import { AuthAttemptLimiter } from '../../src/auth/attempt-limiter.ts';
import { createLimiterBackend } from '../../src/limits/store.ts';

async function gate(code: string | undefined, attemptsPerMinute = 10) {
  const backend = await createLimiterBackend({ keyPrefix: `t${Math.random()}` });
  const attempts = new AuthAttemptLimiter(backend.create({ name: 'auth', points: attemptsPerMinute, windowSeconds: 60, blockSeconds: 60 }));
  return new AdminCodeGate(code, attempts);
}

describe('admin code gate', () => {
  it('grants the right code', async () => {
    assert.deepEqual(await (await gate('s3cret-code')).check('s3cret-code', { accountId: 'a', address: '10.0.0.1' }), { granted: true });
  });

  it('refuses wrong codes: another value, a prefix, a longer string, other case, empty, non-strings', async () => {
    const g = await gate('s3cret-code', 100);
    for (const wrong of ['nope', 's3cret', 's3cret-code!', 'S3CRET-CODE', '', ' s3cret-code', 42, null, undefined, { code: 's3cret-code' }]) {
      assert.deepEqual(await g.check(wrong, { accountId: 'a' }), { granted: false, code: 'ADMIN_CODE_INVALID' }, String(wrong));
    }
  });

  it('without ADMIN_CODE nobody can elevate, not even with an empty code', async () => {
    const g = await gate(undefined);
    assert.equal(g.enabled, false);
    for (const attempt of ['', 'anything', undefined]) {
      assert.deepEqual(await g.check(attempt, { accountId: 'a' }), { granted: false, code: 'ADMIN_DISABLED' });
    }
    assert.equal((await gate('')).enabled, false);
  });

  it('every attempt counts: the 11th in a minute is refused even with the right code', async () => {
    const g = await gate('right', 10);
    for (let i = 0; i < 10; i++) assert.equal((await g.check('wrong', { accountId: 'acc-x', address: '10.0.0.2' })).granted, false);
    const eleventh = await g.check('right', { accountId: 'acc-x', address: '10.0.0.2' });
    assert.equal(eleventh.granted, false);
    assert.equal(eleventh.granted === false && eleventh.code, 'AUTH_RATE_LIMITED');
    assert.ok(eleventh.granted === false && eleventh.code === 'AUTH_RATE_LIMITED' && eleventh.retryAfterSeconds > 0);
  });

  it('counts per account across addresses and per address across accounts', async () => {
    const g = await gate('right', 3);
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) await g.check('wrong', { accountId: 'same', address });
    assert.equal((await g.check('right', { accountId: 'same', address: '10.0.0.4' }) as { code?: string }).code, 'AUTH_RATE_LIMITED');
    const h = await gate('right', 3);
    for (const accountId of ['a1', 'a2', 'a3']) await h.check('wrong', { accountId, address: '10.9.9.9' });
    assert.equal((await h.check('right', { accountId: 'a4', address: '10.9.9.9' }) as { code?: string }).code, 'AUTH_RATE_LIMITED');
    assert.deepEqual(await h.check('right', { accountId: 'a5', address: '10.9.9.8' }), { granted: true });
  });
});
