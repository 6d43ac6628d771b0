/**
 * Process-wide notices that what GET /api/v1/player shows about an account changed: its user row or profile,
 * its characters (created, deleted, selected) or their world state (a character entered or left the world).
 * Whoever writes such a change calls `accountChanged` after the write commits; read caches listen and forget
 * the account. Listeners are held weakly, so a cache of a closed server can be collected. With several processes
 * (REDIS_URL) the cluster relays every change to the other processes (src/cluster/cluster.ts), whose caches forget
 * the account too: a caller's REST requests may be answered by any process.
 */

export interface AccountChangeListener {
  accountChanged(accountId: string): void;
}

const listeners = new Set<WeakRef<AccountChangeListener>>();

export function listenForAccountChanges(listener: AccountChangeListener): void {
  listeners.add(new WeakRef(listener));
}

let relay: ((accountId: string) => void) | undefined;

/** Scale-out: every change made here is also passed to `publish` (undefined stops it). */
export function relayAccountChanges(publish: ((accountId: string) => void) | undefined): void {
  relay = publish;
}

export function accountChanged(accountId: string): void {
  accountChangedElsewhere(accountId);
  relay?.(accountId);
}

/** A change another process made (relayed by the cluster): only this process' listeners hear it. */
export function accountChangedElsewhere(accountId: string): void {
  for (const ref of listeners) {
    const listener = ref.deref();
    if (listener) listener.accountChanged(accountId);
    else listeners.delete(ref);
  }
}
