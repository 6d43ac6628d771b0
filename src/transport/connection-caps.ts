/**
 * Per-address caps on concurrent WebSocket connections (issue #17 item 6): one address had filled all 20,000 file
 * descriptors within 9 s with /ws upgrades that never authenticated, and other clients' connections were reset.
 *
 * Every upgrade (the /ws JSON endpoint and the SDK's room sockets) takes a ticket for its client address before
 * the handshake; the ticket is given back when the socket closes. An address may hold at most
 * WS_MAX_CONNECTIONS_PER_ADDRESS (100) connections, and of those at most WS_MAX_UNAUTHENTICATED_PER_ADDRESS (10)
 * /ws connections that have not authenticated yet (SDK sockets take a seat that matchmaking granted to a verified
 * token, so they count as authenticated). Over a cap the upgrade is answered `429 Too Many Requests` and counted
 * in game_rate_limit_rejections_total{limit="ws_connections"|"ws_unauthenticated"}. An admission waiting for Redis
 * holds its upgrade's socket, so it counts toward the total while it waits: the cap bounds descriptors, not only the
 * sockets admitted.
 *
 * With REDIS_URL the counts are shared by every process: each address has two sorted sets of connection ids
 * (all, unauthenticated) scored by a lease expiry; admission is one Lua script (drop expired leases, compare,
 * add), live connections renew their leases every LEASE_MS / 3, and a process that dies stops renewing, so its
 * connections leave the counts within LEASE_MS. While Redis does not answer, this process' own counts decide.
 *
 * Scale-out: a /ws socket is authenticated by the process it connects to, which counts it as usual. When it enters
 * a world on another process, the hand-over socket there (signed client address) is admitted with `admitRelayed`
 * under the client's address and authenticated at its upgrade (bearer token).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';

export type CapRefusal = 'ws_connections' | 'ws_unauthenticated';

export interface ConnectionTicket {
  /** The connection authenticated: it no longer counts against the unauthenticated cap. Idempotent. */
  authenticated(): void;
  /** The connection closed. Idempotent. */
  release(): void;
}

export type Admission = { ok: true; ticket: ConnectionTicket } | { ok: false; refusal: CapRefusal };

export interface ConnectionCapsOptions {
  maxPerAddress: number;
  maxUnauthenticatedPerAddress: number;
  /** Shares the counts between processes. */
  redisUrl?: string;
  keyPrefix?: string;
  logger?: Logger;
  /** Told each refusal (metrics). */
  onRefuse?: (refusal: CapRefusal) => void;
}

/** How long a connection counts in Redis without its process renewing it. */
export const LEASE_MS = 30_000;

const ADMIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
local relayed = ARGV[8] == '1'
if not relayed and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
local unauthenticated = ARGV[6] == '1'
if unauthenticated and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
if not relayed then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
end
if unauthenticated then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[7])
end
return 0`;

interface Counts {
  all: number;
  unauthenticated: number;
}

interface Live {
  address: string;
  id: string;
  unauthenticated: boolean;
  /** Relayed from the process the client connected to, which counts it toward the total: counted here only while unauthenticated. */
  relayed: boolean;
}

export class ConnectionCaps {
  private readonly options: ConnectionCapsOptions;
  private readonly local = new Map<string, Counts>();
  /**
   * Per address, admissions waiting for Redis: each holds an upgrade's socket, so they count toward the total cap
   * too, and a burst is refused at once instead of holding a descriptor per upgrade while Redis answers.
   */
  private readonly waiting = new Map<string, number>();
  private readonly live = new Set<Live>();
  private readonly redis: Redis | undefined;
  private readonly renewTimer: NodeJS.Timeout | undefined;
  private readonly prefix: string;

  constructor(options: ConnectionCapsOptions) {
    this.options = options;
    this.prefix = `${options.keyPrefix ?? 'rl'}:conn`;
    if (options.redisUrl) {
      this.redis = new Redis(options.redisUrl, { enableOfflineQueue: false, lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
      this.redis.on('error', (error: Error) => options.logger?.warn({ err: { message: error.message } }, 'connection caps: Redis error'));
      this.redis.connect().catch((error: Error) =>
        options.logger?.error({ err: { message: error.message } }, 'connection caps: Redis unreachable; counting this process only'));
      this.renewTimer = setInterval(() => void this.renew(), LEASE_MS / 3);
      this.renewTimer.unref();
    }
  }

  /** Connections this process holds for the address (for tests and operators). */
  countsOf(address: string): Counts {
    return { ...(this.local.get(address) ?? { all: 0, unauthenticated: 0 }) };
  }

  /** Takes a ticket for a new connection from `address`, or says which cap refuses it. */
  async admit(address: string, authenticated: boolean): Promise<Admission> {
    return this.take({ address, id: randomUUID(), unauthenticated: !authenticated, relayed: false });
  }

  /**
   * Takes a ticket for a /ws socket another process relayed here (scale-out): that process counted it toward the
   * total; here it counts toward the unauthenticated cap of the client's address until it authenticates.
   */
  async admitRelayed(address: string): Promise<Admission> {
    return this.take({ address, id: randomUUID(), unauthenticated: true, relayed: true });
  }

  private async take(entry: Live): Promise<Admission> {
    const { address } = entry;
    const authenticated = !entry.unauthenticated;
    const counts = this.local.get(address) ?? { all: 0, unauthenticated: 0 };
    const waiting = this.waiting.get(address) ?? 0;
    let refusal = this.localRefusal(counts, authenticated, entry.relayed, waiting);
    if (!refusal && this.redis?.status === 'ready') {
      // A relayed socket was counted toward the total where the client connected: it does not wait for a place here.
      if (!entry.relayed) this.waiting.set(address, waiting + 1);
      try {
        refusal = await this.sharedAdmission(entry);
      } catch (error) {
        this.options.logger?.warn({ err: { message: (error as Error).message } }, 'connection caps: Redis failed; counting this process only');
      } finally {
        if (!entry.relayed) {
          const left = (this.waiting.get(address) ?? 1) - 1;
          if (left > 0) this.waiting.set(address, left);
          else this.waiting.delete(address);
        }
      }
      // The await let other upgrades in: this process' own count still holds.
      if (!refusal) {
        refusal = this.localRefusal(this.local.get(address) ?? counts, authenticated, entry.relayed);
        if (refusal) this.sharedRemove(entry, true);
      }
    }
    if (refusal) {
      this.options.onRefuse?.(refusal);
      return { ok: false, refusal };
    }
    const current = this.local.get(address) ?? { all: 0, unauthenticated: 0 };
    if (!entry.relayed) current.all++;
    if (!authenticated) current.unauthenticated++;
    this.local.set(address, current);
    this.live.add(entry);
    return { ok: true, ticket: this.ticketFor(entry) };
  }

  async close(): Promise<void> {
    if (this.renewTimer) clearInterval(this.renewTimer);
    if (this.redis) {
      const entries = [...this.live];
      if (entries.length > 0 && this.redis.status === 'ready') {
        const pipeline = this.redis.pipeline();
        for (const entry of entries) pipeline.zrem(this.key('all', entry.address), entry.id).zrem(this.key('unauth', entry.address), entry.id);
        await pipeline.exec().catch(() => undefined);
      }
      try {
        await this.redis.quit();
      } catch {
        this.redis.disconnect();
      }
    }
  }

  /** `waiting`: the address' admissions waiting for Redis, which count toward the total (see `waiting` above). */
  private localRefusal(counts: Counts, authenticated: boolean, relayed = false, waiting = 0): CapRefusal | undefined {
    if (!relayed && counts.all + waiting >= this.options.maxPerAddress) return 'ws_connections';
    if (!authenticated && counts.unauthenticated >= this.options.maxUnauthenticatedPerAddress) return 'ws_unauthenticated';
    return undefined;
  }

  private async sharedAdmission(entry: Live): Promise<CapRefusal | undefined> {
    const now = Date.now();
    const result = await this.redis!.eval(ADMIT, 2, this.key('all', entry.address), this.key('unauth', entry.address),
      now, now + LEASE_MS, entry.id, this.options.maxPerAddress, this.options.maxUnauthenticatedPerAddress,
      entry.unauthenticated ? '1' : '0', LEASE_MS * 2, entry.relayed ? '1' : '0');
    return result === 1 ? 'ws_connections' : result === 2 ? 'ws_unauthenticated' : undefined;
  }

  private ticketFor(entry: Live): ConnectionTicket {
    let released = false;
    return {
      authenticated: () => {
        if (released || !entry.unauthenticated) return;
        entry.unauthenticated = false;
        const counts = this.local.get(entry.address);
        if (counts) {
          counts.unauthenticated--;
          if (counts.all <= 0 && counts.unauthenticated <= 0) this.local.delete(entry.address);
        }
        this.sharedRemove(entry, false);
      },
      release: () => {
        if (released) return;
        released = true;
        this.live.delete(entry);
        const counts = this.local.get(entry.address);
        if (counts) {
          if (!entry.relayed) counts.all--;
          if (entry.unauthenticated) counts.unauthenticated--;
          if (counts.all <= 0 && counts.unauthenticated <= 0) this.local.delete(entry.address);
        }
        this.sharedRemove(entry, true);
      },
    };
  }

  private sharedRemove(entry: Live, all: boolean): void {
    if (this.redis?.status !== 'ready') return;
    const pipeline = this.redis.pipeline().zrem(this.key('unauth', entry.address), entry.id);
    if (all) pipeline.zrem(this.key('all', entry.address), entry.id);
    void pipeline.exec().catch(() => undefined);
  }

  /** Renews the leases of this process' live connections (XX: a connection released meanwhile stays gone). */
  private async renew(): Promise<void> {
    if (this.redis?.status !== 'ready' || this.live.size === 0) return;
    const expiry = Date.now() + LEASE_MS;
    const pipeline = this.redis.pipeline();
    for (const entry of this.live) {
      if (!entry.relayed) pipeline.zadd(this.key('all', entry.address), 'XX', expiry, entry.id).pexpire(this.key('all', entry.address), LEASE_MS * 2);
      if (entry.unauthenticated) pipeline.zadd(this.key('unauth', entry.address), 'XX', expiry, entry.id).pexpire(this.key('unauth', entry.address), LEASE_MS * 2);
    }
    await pipeline.exec().catch((error: Error) =>
      this.options.logger?.warn({ err: { message: error.message } }, 'connection caps: could not renew the leases'));
  }

  private key(kind: 'all' | 'unauth', address: string): string {
    return `${this.prefix}:${kind}:${address}`;
  }
}
