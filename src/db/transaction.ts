/**
 * The open transaction a store's functions take, and the one way code outside src/db opens one. No other layer
 * holds the ORM (docs/architecture.md, "Where SQL lives"): rooms, routes, services and tools receive a
 * `Transaction` from `transaction()`, `session()` or the item transaction (src/db/item-transaction.ts) and only
 * hand it to store functions, so every statement of the unit of work commits or rolls back together.
 */
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { Database } from './database.ts';
import { assertWorldFence, type WorldFence } from './worlds.ts';

/** An open transaction (or, for reads outside one, a forked entity manager). */
export type Transaction = SqlEntityManager;

/** Runs `work` in one transaction on a fresh unit of work; commits when it resolves, rolls back when it throws. */
export function transaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.em.fork().transactional((tx) => work(tx));
}

/**
 * A world's transaction: refused (WORLD_UNAVAILABLE, nothing written) unless the world still holds its lease with
 * this epoch, and — for `characters` — each is claimed by it (src/db/worlds.ts `assertWorldFence`).
 */
export function fencedTransaction<T>(db: Database, fence: WorldFence, work: (tx: Transaction) => Promise<T>, characters: readonly string[] = []): Promise<T> {
  return transaction(db, async (tx) => {
    await assertWorldFence(tx, fence, characters);
    return work(tx);
  });
}

/** A fresh unit of work for reads (and single writes) outside a transaction, to hand to store functions. */
export function session(db: Database): Transaction {
  return db.em.fork();
}
