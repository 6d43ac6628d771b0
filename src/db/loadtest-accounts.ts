/**
 * Accounts for load tests (`npm run mint-tokens`): temporary identities, role player only, that expire with the
 * tokens minted for them, so the periodic cleanup deletes them and every character the bots made.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { User } from './entities/user.ts';

export const LOADTEST_NAME_PREFIX = 'Loadtest';

/** Inserts `count` temporary accounts expiring at `expiresAt`; returns their ids in insertion order. */
export async function createLoadTestAccounts(em: EntityManager, count: number, expiresAt: Date, now = new Date()): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const BATCH = 500;
  for (let start = 0; start < ids.length; start += BATCH) {
    await em.insertMany(User, ids.slice(start, start + BATCH).map((id) => ({
      id,
      idpSubject: null,
      displayName: `${LOADTEST_NAME_PREFIX} ${id.replaceAll('-', '').slice(0, 8)}`,
      roles: ['player'],
      isTemporary: true,
      expiresAt,
      createdAt: now,
      lastLoginAt: null,
    })));
  }
  return ids;
}
