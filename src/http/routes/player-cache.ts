/**
 * A per-process cache of what GET /api/v1/player reads from the database for an account (user, profile,
 * characters), so an agent polling it costs no query. Correctness rests on invalidation, not on expiry:
 *
 * - every write that changes those rows calls `accountChanged` (src/db/account-changes.ts) after it commits,
 *   which drops the account's entry: profile POST, character create / delete / select, a character entering or
 *   leaving the world (its last-login time and saved combat level change then);
 * - a read that was in flight while any change happened does not store what it read (the change epoch moved);
 * - an entry remembers which of the account's characters were in the world when it was stored and is not served
 *   once that differs, nor after a temporary account's expiry, nor after MAX_AGE_MS (a bound on staleness from a
 *   write path nobody announced).
 * Live facts (online, the combat level of a character in the world) are read at answer time, never cached.
 * With several processes (REDIS_URL) a caller's requests may be answered by any process (the one its character's
 * world runs on, or the one reached): every announced write is relayed to the other processes through Redis
 * (src/cluster/cluster.ts), whose caches drop the account as well.
 */
import { listenForAccountChanges, type AccountChangeListener } from '../../db/account-changes.ts';

export interface AccountSnapshot {
  accountId: string;
  displayName: string;
  avatar: string | null;
  temporary: boolean;
  expiresAt: Date | null;
  /** The profile's selected character. */
  activeCharacterId: string | null;
  characters: ReadonlyArray<{ id: string; name: string; combatLevel: number; createdAt: string; lastLoginAt: string | null }>;
}

interface Entry {
  snapshot: AccountSnapshot;
  storedAt: number;
  inWorld: ReadonlySet<string>;
}

export const PLAYER_CACHE_MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 10_000;

export class PlayerCache implements AccountChangeListener {
  hits = 0;
  misses = 0;
  private readonly entries = new Map<string, Entry>();
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private epoch = 0;

  constructor(options: { maxAgeMs?: number; now?: () => number } = {}) {
    this.maxAgeMs = options.maxAgeMs ?? PLAYER_CACHE_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
    listenForAccountChanges(this);
  }

  accountChanged(accountId: string): void {
    this.epoch++;
    this.entries.delete(accountId);
  }

  /** The account's snapshot: cached when still valid, otherwise `load()`ed (and stored if nothing changed meanwhile). */
  async read(accountId: string, load: () => Promise<AccountSnapshot>, inWorld: (characterId: string) => boolean): Promise<AccountSnapshot> {
    const entry = this.entries.get(accountId);
    if (entry && this.valid(entry, inWorld)) {
      this.hits++;
      return entry.snapshot;
    }
    this.misses++;
    const epoch = this.epoch;
    const snapshot = await load();
    if (epoch === this.epoch) {
      if (this.entries.size >= MAX_ENTRIES && !this.entries.has(accountId)) this.entries.delete(this.entries.keys().next().value!);
      const present = new Set(snapshot.characters.filter((c) => inWorld(c.id)).map((c) => c.id));
      this.entries.set(accountId, { snapshot, storedAt: this.now(), inWorld: present });
    }
    return snapshot;
  }

  private valid(entry: Entry, inWorld: (characterId: string) => boolean): boolean {
    const now = this.now();
    if (now - entry.storedAt >= this.maxAgeMs) return false;
    const { snapshot } = entry;
    if (snapshot.temporary && snapshot.expiresAt !== null && snapshot.expiresAt.getTime() <= now) return false;
    return snapshot.characters.every((c) => inWorld(c.id) === entry.inWorld.has(c.id));
  }
}
