/**
 * A world's lease on its number (docs/scaling.md "Leases and fencing"). The world room holds the lease it took when
 * it opened (src/db/worlds.ts `openWorld`: a number, an epoch that only grows, a lapse time on PostgreSQL's clock)
 * and renews it every third of the lease time. By its own monotonic clock it counts the lease as held until the
 * time it *sent* its last successful renewal plus the lease time less a margin — always before PostgreSQL lets it
 * lapse — and acts for the world (ticks, events, entries, saves) only while it is held:
 *
 * - `held`: renewed within the lease time;
 * - `suspended`: not renewed in time (the process was stalled, or cannot reach PostgreSQL). Nothing is acted on; a
 *   renewal still in time brings it back;
 * - `lost`: a renewal found the lease gone (lapsed, or taken over with a newer epoch), or none succeeded for a
 *   second lease time. The world closes its sessions (close code 4012) and goes away; it never comes back.
 *
 * The database refuses a write whose epoch is not the current one whatever this says (fencing, src/db/worlds.ts
 * `assertWorldFence`): this is what keeps a process that wakes up from acting before it learns it lost the world.
 */
import type { WorldFence } from '../../src/db/worlds.ts';
import { GameError } from '../../src/game/refusal.ts';

export type { WorldFence } from '../../src/db/worlds.ts';

export type LeaseState = 'held' | 'suspended' | 'lost';

/** Renews the lease; false when it is gone (lapsed or taken over). Rejects when the store cannot be reached. */
export type RenewLease = (fence: WorldFence, leaseSeconds: number) => Promise<boolean>;

/** Of the lease time, the share the holder counts on: the rest covers clock-rate differences with PostgreSQL. */
const TRUSTED_SHARE = 0.9;

export class WorldLease implements WorldFence {
  readonly world: number;
  readonly epoch: number;
  private readonly leaseMs: number;
  private readonly renewLease: RenewLease;
  private readonly onLost: (reason: string) => void;
  private readonly now: () => number;
  /** Until when (this process' monotonic clock) the lease counts as held. */
  private validUntil: number;
  private lostFor: string | undefined;
  private renewing = false;

  /** `acquiredAt`: the monotonic time at which the statement that took the lease was sent. */
  constructor(options: { world: number; epoch: number; leaseSeconds: number; acquiredAt: number; renew: RenewLease; onLost: (reason: string) => void; now?: () => number }) {
    this.world = options.world;
    this.epoch = options.epoch;
    this.leaseMs = options.leaseSeconds * 1000;
    this.renewLease = options.renew;
    this.onLost = options.onLost;
    this.now = options.now ?? (() => performance.now());
    this.validUntil = options.acquiredAt + this.leaseMs * TRUSTED_SHARE;
  }

  get state(): LeaseState {
    if (this.lostFor !== undefined) return 'lost';
    return this.now() < this.validUntil ? 'held' : 'suspended';
  }

  get held(): boolean {
    return this.state === 'held';
  }

  /** Why the lease was lost, once it is. */
  get lostReason(): string | undefined {
    return this.lostFor;
  }

  /** How often to renew (a third of the lease time). */
  get renewEveryMs(): number {
    return this.leaseMs / 3;
  }

  /** Refuses with WORLD_UNAVAILABLE unless the lease is held now. */
  assertHeld(): void {
    if (this.held) return;
    throw new GameError('WORLD_UNAVAILABLE', this.lostFor !== undefined
      ? 'This world has moved to another server; enter again'
      : 'This world cannot reach its database right now; try again shortly', { retryAfterSeconds: Math.ceil(this.leaseMs / 1000) });
  }

  /** The world's number and epoch, for the writes it makes (fenced by the database). */
  fence(): WorldFence {
    return { world: this.world, epoch: this.epoch };
  }

  /** One renewal (skipped while one is in flight). Loses the lease when it is gone, or after a second lease time without one. */
  async renew(): Promise<void> {
    if (this.renewing || this.lostFor !== undefined) return;
    this.renewing = true;
    const sentAt = this.now();
    try {
      if (await this.renewLease(this.fence(), this.leaseMs / 1000)) this.validUntil = Math.max(this.validUntil, sentAt + this.leaseMs * TRUSTED_SHARE);
      else this.lose('the lease lapsed or was taken over');
    } catch {
      this.check();
    } finally {
      this.renewing = false;
    }
  }

  /** Gives the lease up for good once it could not be renewed for a second lease time. */
  check(): void {
    if (this.lostFor === undefined && this.now() > this.validUntil + this.leaseMs) this.lose('the lease could not be renewed');
  }

  private lose(reason: string): void {
    if (this.lostFor !== undefined) return;
    this.lostFor = reason;
    this.onLost(reason);
  }
}
