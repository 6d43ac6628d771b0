/**
 * The account reads of logins, in batches: the logins whose token was verified in one turn of the event loop have
 * their accounts read by one query, up to MAX_BATCH at once, at most `slots` queries at a time. A storm of thousands
 * of logins then costs the database (and this process, which sends and decodes every query) a few dozen queries
 * instead of one each (docs/worlds.md "When the server is full"). Nothing is cached: each login sees the account
 * as stored when its batch was read.
 */
import DataLoader from 'dataloader';
import type { User } from '../db/entities/user.ts';
import { WorkSlots } from '../limits/work-slots.ts';

export type AccountRights = Pick<User, 'id' | 'roles' | 'isTemporary' | 'expiresAt'>;

/** Logins whose accounts one query reads. */
const MAX_BATCH = 128;

export class LoginReads {
  private readonly loader: DataLoader<string, AccountRights | null>;

  constructor(read: (accountIds: string[]) => Promise<AccountRights[]>, slots: number) {
    const queries = new WorkSlots(slots);
    this.loader = new DataLoader(async (accountIds) => {
      const rows = await queries.run(() => read([...new Set(accountIds)]));
      const byId = new Map(rows.map((row) => [row.id, row]));
      return accountIds.map((accountId) => byId.get(accountId) ?? null);
    }, { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => void setImmediate(run) });
  }

  /** The account as stored now, or null when there is none. */
  account(accountId: string): Promise<AccountRights | null> {
    return this.loader.load(accountId);
  }
}
