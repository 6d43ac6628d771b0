/**
 * Work over many items in chunks, with the event loop free between chunks (a `setImmediate` turn): for batches that
 * run on the server's own thread, like statements on the embedded database, so no batch stalls a world's tick.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

export async function inChunks<T>(items: readonly T[], size: number, work: (chunk: T[]) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await yieldToEventLoop();
    await work(items.slice(start, start + size));
  }
}
