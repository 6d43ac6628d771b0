/**
 * Operator changes to account roles (`npm run admin`, src/tools/admin.ts). The admin role is granted only here:
 * never by a client, never to a temporary identity (a grant makes the account permanent, see docs/operations.md).
 */
import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { User } from './entities/user.ts';

export const ADMIN_ROLE = 'admin';

export interface AccountRoles {
  accountId: string;
  displayName: string;
  roles: string[];
  /** True when the grant turned a temporary (anonymous) identity into a permanent account. */
  madePermanent: boolean;
  /** False when the account already was in the state asked for. */
  changed: boolean;
}

export class AccountNotFoundError extends Error {
  constructor(accountId: string) {
    super(`no account with id "${accountId}"`);
    this.name = 'AccountNotFoundError';
  }
}

async function lockedUser(em: EntityManager, accountId: string): Promise<User> {
  const user = accountId.length > 0 && accountId.length <= 200
    ? await em.findOne(User, { id: accountId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    : null;
  if (!user) throw new AccountNotFoundError(accountId);
  return user;
}

/**
 * Adds the admin role. A temporary identity becomes a permanent account (no expiry, so the cleanup keeps it and its
 * tokens carry the role): temporary identities never hold admin.
 */
export async function grantAdmin(em: EntityManager, accountId: string): Promise<AccountRoles> {
  return em.transactional(async (tx) => {
    const user = await lockedUser(tx, accountId);
    const madePermanent = user.isTemporary;
    const changed = madePermanent || !user.roles.includes(ADMIN_ROLE);
    if (changed) {
      tx.assign(user, { roles: [...user.roles.filter((role) => role !== ADMIN_ROLE), ADMIN_ROLE], isTemporary: false, expiresAt: null });
    }
    return { accountId: user.id, displayName: user.displayName, roles: [...user.roles], madePermanent, changed };
  });
}

/** A new permanent account holding the player and admin roles (`npm run admin -- create`). */
export async function createAdminAccount(em: EntityManager): Promise<AccountRoles> {
  const id = randomUUID();
  const user = em.create(User, {
    id, displayName: `Admin ${id.replaceAll('-', '').slice(0, 8)}`, roles: ['player', ADMIN_ROLE], isTemporary: false, expiresAt: null,
  });
  await em.flush();
  return { accountId: user.id, displayName: user.displayName, roles: [...user.roles], madePermanent: false, changed: true };
}

/** Removes the admin role (the account stays permanent). */
export async function revokeAdmin(em: EntityManager, accountId: string): Promise<AccountRoles> {
  return em.transactional(async (tx) => {
    const user = await lockedUser(tx, accountId);
    const changed = user.roles.includes(ADMIN_ROLE);
    if (changed) tx.assign(user, { roles: user.roles.filter((role) => role !== ADMIN_ROLE) });
    return { accountId: user.id, displayName: user.displayName, roles: [...user.roles], madePermanent: false, changed };
  });
}

/** Accounts holding the admin role, oldest first. */
export async function listAdmins(em: SqlEntityManager): Promise<Array<{ accountId: string; displayName: string; createdAt: Date }>> {
  const rows = await em.execute<Array<{ id: string; display_name: string; created_at: Date | string }>>(
    `select id, display_name, created_at from users where roles @> ?::jsonb order by created_at, id`, [JSON.stringify([ADMIN_ROLE])]);
  return rows.map((row) => ({ accountId: row.id, displayName: row.display_name, createdAt: new Date(row.created_at) }));
}
