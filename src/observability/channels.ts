/**
 * Diagnostics channels the layers below the edges publish on, so they report what they do without importing the
 * metrics (or anything else): src/db traces its item transactions here. Free while nobody subscribes.
 */
import diagnostics from 'node:diagnostics_channel';

/** The tracing channel src/db/item-transaction.ts publishes each item transaction on. */
export const ITEM_TRANSACTION_CHANNEL = 'game.db.item-transaction';

/** What item-transaction.ts passes with each traced transaction. */
export interface ItemTransactionTrace {
  /** The database it ran on (a process may run several servers: tests). */
  db: object;
  /** A fixed name per caller: `trade`, `items`. */
  operation: string;
  /** Set by the subscriber at the start. */
  startedAt?: number;
}

export const itemTransactionChannel = diagnostics.tracingChannel<object, ItemTransactionTrace>(ITEM_TRANSACTION_CHANNEL);

/** Traces `run` on the item-transaction channel (free when nobody subscribes). */
export function traceItemTransaction<T>(db: object, operation: string, run: () => Promise<T>): Promise<T> {
  if (!itemTransactionChannel.hasSubscribers) return run();
  return itemTransactionChannel.tracePromise(run, { db, operation });
}
