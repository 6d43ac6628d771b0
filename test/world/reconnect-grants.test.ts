/** The one-time authorisations behind browser SDK reconnection (rooms/entry/reconnect-grants.ts), on a fake clock. */
import assert from 'node:assert/strict';
import { ReconnectGrants } from '../../rooms/entry/reconnect-grants.ts';

describe('reconnection grants', () => {
  let now = 0;
  const grants = () => new ReconnectGrants(() => now, 10_000);

  beforeEach(() => {
    now = 1_000;
  });

  it('serve the seat they were given for, once', () => {
    const store = grants();
    store.grant('session-1', 'token-1', 'account-1');
    assert.equal(store.take('session-1', 'token-1'), 'account-1');
    assert.equal(store.take('session-1', 'token-1'), undefined);
    assert.equal(store.size, 0);
  });

  it('are not used by another session presenting the token, and are spent by the attempt', () => {
    const store = grants();
    store.grant('session-1', 'token-1', 'account-1');
    assert.equal(store.take('session-2', 'token-1'), undefined);
    assert.equal(store.take('session-1', 'token-1'), undefined);
  });

  it('expire after their lifetime and go with their seat', () => {
    const store = grants();
    store.grant('session-1', 'token-1', 'account-1');
    now += 10_000;
    assert.equal(store.take('session-1', 'token-1'), 'account-1', 'still fresh at the limit');
    store.grant('session-1', 'token-1', 'account-1');
    now += 10_001;
    assert.equal(store.take('session-1', 'token-1'), undefined);
    store.grant('session-1', 'token-1', 'account-1');
    store.forget('token-1');
    assert.equal(store.take('session-1', 'token-1'), undefined);
  });
});
