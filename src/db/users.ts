/**
 * The `users` rows (accounts) as authentication and the REST routes read and write them: an identity-provider
 * account created on first sight (race-free), a temporary identity, the lookup by id, the rights the live-session
 * sweep re-reads, the cleanup of expired temporary identities and the display name. What a new account holds (its
 * name, its roles) and when an account counts as live are decided by the callers (src/auth/accounts.ts).
 */
import type { Transaction } from './transaction.ts';
import { User } from './entities/user.ts';

/** A new account: its id, the name it shows and its roles (chosen by src/auth/accounts.ts). */
export interface NewUser {
  id: string;
  displayName: string;
  roles: string[];
}

/**
 * The account of an identity-provider subject, inserted when absent. Concurrent first logins race on the unique
 * `idp_subject`: each inserts with ON CONFLICT DO NOTHING and then reads the one row that won; a login that did
 * not insert records its time on the existing row.
 */
export async function findOrInsertIdpUser(tx: Transaction, subject: string, user: NewUser, now: Date): Promise<User> {
  await tx.createQueryBuilder(User)
    .insert({
      id: user.id,
      idpSubject: subject,
      displayName: user.displayName,
      roles: user.roles,
      isTemporary: false,
      createdAt: now,
      lastLoginAt: now,
    })
    .onConflict('idpSubject')
    .ignore()
    .execute();
  const found = await tx.findOneOrFail(User, { idpSubject: subject }, { refresh: true });
  if (found.id !== user.id) await tx.nativeUpdate(User, { id: found.id }, { lastLoginAt: now });
  return found;
}

/** Inserts a temporary identity that expires at `expiresAt` and reads it back. */
export async function insertTemporaryUser(tx: Transaction, user: NewUser, expiresAt: Date, now: Date): Promise<User> {
  await tx.insert(User, {
    id: user.id,
    idpSubject: null,
    displayName: user.displayName,
    roles: user.roles,
    isTemporary: true,
    expiresAt,
    createdAt: now,
    lastLoginAt: now,
  });
  return tx.findOneOrFail(User, { id: user.id }, { refresh: true });
}

/** The account row as stored now (not a copy the unit of work holds), or null. */
export function findUser(tx: Transaction, accountId: string): Promise<User | null> {
  return tx.findOne(User, { id: accountId }, { refresh: true });
}

/** What the live-session sweep needs of each account (rows of deleted accounts are simply absent). */
export function loadAccountRights(tx: Transaction, accountIds: string[]): Promise<Array<Pick<User, 'id' | 'roles' | 'isTemporary' | 'expiresAt'>>> {
  return tx.find(User, { id: { $in: accountIds } }, { fields: ['id', 'roles', 'isTemporary', 'expiresAt'] });
}

/** Deletes the temporary identities whose time is up (the database cascades to their characters); their ids. */
export async function deleteExpiredTemporaryUserRows(tx: Transaction, now: Date): Promise<string[]> {
  const rows: Array<{ id: string }> = await tx.getConnection().execute(
    'delete from users where is_temporary = true and expires_at <= ? returning id', [now]);
  return rows.map((row) => row.id);
}

/** Changes the name the account shows (POST /api/v1/player). */
export async function setDisplayName(tx: Transaction, accountId: string, displayName: string): Promise<void> {
  await tx.nativeUpdate(User, { id: accountId }, { displayName });
}
