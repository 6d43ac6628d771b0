/**
 * Process-wide notices that what GET /api/v1/player shows about an account changed: its user row or profile,
 * its characters (created, deleted, selected) or their world state (a character entered or left the world).
 * Whoever writes such a change calls `accountChanged` after the write commits; read caches listen and forget
 * the account. Listeners are held weakly, so a cache of a closed server can be collected.
 */

export interface AccountChangeListener {
  accountChanged(accountId: string): void;
}

const listeners = new Set<WeakRef<AccountChangeListener>>();

export function listenForAccountChanges(listener: AccountChangeListener): void {
  listeners.add(new WeakRef(listener));
}

export function accountChanged(accountId: string): void {
  for (const ref of listeners) {
    const listener = ref.deref();
    if (listener) listener.accountChanged(accountId);
    else listeners.delete(ref);
  }
}
