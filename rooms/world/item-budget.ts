/**
 * A per-account budget of item transactions (issue #17 item 7). Each item move a player asks for (inventory, bank,
 * shop, equipment, quests: `moveOwnItems`) is a database transaction that locks rows and writes them: far dearer
 * than a chat line or a step, which the per-connection message allowance (WS_MESSAGES_PER_SECOND) prices alike.
 * This budget is counted apart, per account — over all of its sockets and characters —, so one account cannot buy
 * the whole database with its message allowance: ITEM_TRANSACTIONS_PER_SECOND (10) a second, with a burst of as
 * many. Over it the request is refused RATE_LIMITED (with retryAfterMs) before any transaction starts: nothing
 * changes. A trade costs each of its two accounts one when it is accepted (its room and its swap: trade-service.ts).
 * Server-driven moves (deaths, gathering, NPC drops, admin commands) are not counted.
 *
 * In memory of the world (the `itemBudgets` slot): every character of an account is in that process's one world.
 */
import { GameError } from '../../src/game/refusal.ts';
import { WorldSlot } from './area.ts';

interface Bucket {
  tokens: number;
  at: number;
}

let clock: () => number = () => performance.now();

/** Tests: a fixed clock makes the budget deterministic (no refill while it stands still). */
export function setItemBudgetClock(next: () => number): void {
  clock = next;
}

/** Token buckets by account: `perSecond` tokens a second, holding at most `perSecond`. */
export class ItemTransactionBudget {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perSecond: number;

  constructor(perSecond: number) {
    this.perSecond = perSecond;
  }

  /** Spends `cost` of the account's budget, or throws RATE_LIMITED and spends nothing. */
  spend(accountId: string, cost = 1, now = clock()): void {
    this.spendEach([accountId], cost, now);
  }

  /**
   * Spends `cost` of each account's budget (a trade: one transaction for both sides), or throws RATE_LIMITED and
   * spends nothing from any of them.
   */
  spendEach(accountIds: readonly string[], cost = 1, now = clock()): void {
    const buckets = [...new Set(accountIds)].map((id) => this.refill(id, now));
    const short = buckets.find((bucket) => bucket.tokens < cost);
    if (short) {
      const retryAfterMs = Math.ceil(((cost - short.tokens) / this.perSecond) * 1000);
      throw new GameError('RATE_LIMITED', `Too many item actions: at most ${this.perSecond} a second; retry in ${retryAfterMs} ms`, { retryAfterMs });
    }
    for (const bucket of buckets) bucket.tokens -= cost;
  }

  private refill(accountId: string, now: number): Bucket {
    let bucket = this.buckets.get(accountId);
    if (!bucket) {
      if (this.buckets.size >= 10_000) this.forgetFull(now);
      bucket = { tokens: this.perSecond, at: now };
      this.buckets.set(accountId, bucket);
      return bucket;
    }
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    return bucket;
  }

  /** Drops the buckets that have refilled (they hold nothing a new bucket would not). */
  private forgetFull(now: number): void {
    for (const [id, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond >= this.perSecond) this.buckets.delete(id);
    }
  }
}

/** The budgets of a world, at the configured rate (ITEM_TRANSACTIONS_PER_SECOND). */
export const itemBudgets = new WorldSlot<ItemTransactionBudget>('itemBudgets', (world) => new ItemTransactionBudget(world.context().config.itemTransactionsPerSecond));
