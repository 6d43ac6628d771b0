/**
 * The login queue's store (docs/worlds.md "When the server is full"): one first-come-first-served line per world
 * number, and each process' admission state, in Redis when REDIS_URL is set (so every process sees one line and
 * every other process' headroom) or in this process' memory. Nothing in it survives on purpose: a ticket nobody
 * asked about for TICKET_TTL_MS is dropped (its holder left, or its process died), and a restart of a single process
 * empties it.
 *
 * Order is by arrival: each new ticket takes the next number of its world's counter (Redis INCR, not a clock, so
 * processes with different clocks still line up fairly).
 */
import { Redis } from 'ioredis';

/** A ticket not asked about (a /ws waiter asks every half second, an SDK client on each retry) for this long leaves. */
export const TICKET_TTL_MS = 30_000;
/** Departures counted for the queue's pace (the estimated wait). */
const SERVED_WINDOW_MS = 60_000;
/** A process' admission state older than this is not believed (the process stopped publishing it). */
const STATE_FRESH_MS = 3_000;

export interface QueuePlace {
  /** 1 for the head of the line. */
  position: number;
  length: number;
  /** Players this world's queue let in per second over the last minute. */
  servedPerSecond: number;
}

/** What a process publishes of itself: whether it has room for another player now, and why not. */
export interface ProcessAdmission {
  busy: boolean;
  reason?: 'tick' | 'lag' | 'entries';
  /** When it was measured (ms since the epoch). */
  at: number;
}

export interface LoginQueue {
  readonly kind: 'memory' | 'redis';
  /**
   * The ticket's place in the world's line: joined at the end when it is not in it (undefined when the line holds
   * `max` tickets already), kept alive when it is.
   */
  place(world: number, ticket: string, max: number): Promise<QueuePlace | undefined>;
  /**
   * The places of several tickets in the world's line at once (each kept alive), for a process' waiters; a ticket no
   * longer in the line (dropped) is missing from the answer.
   */
  places(world: number, tickets: readonly string[]): Promise<Map<string, QueuePlace>>;
  /** The ticket leaves the line: served (it entered the world: counted for the pace) or given up. */
  leave(world: number, ticket: string, served: boolean): Promise<void>;
  /** How many wait for each of these worlds. */
  lengths(worlds: readonly number[]): Promise<Map<number, number>>;
  /** This process' admission state, for the others (placement of new worlds, entries handed over). */
  publish(processId: string, state: ProcessAdmission): Promise<void>;
  /** Every process' last published admission state, recent or not (`isFresh` tells). */
  processes(): Promise<Map<string, ProcessAdmission>>;
  forget(processId: string): Promise<void>;
  close(): Promise<void>;
}

export function createLoginQueue(redisUrl: string | undefined, keyPrefix: string): LoginQueue {
  return redisUrl ? new RedisLoginQueue(redisUrl, keyPrefix) : new MemoryLoginQueue();
}

/** Index of the first element of the sorted `values` not below `value`. */
function lowerBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether a process' published state is recent enough to believe (it stops publishing when it dies or stalls). */
export function isFresh(state: ProcessAdmission, now = Date.now()): boolean {
  return now - state.at <= STATE_FRESH_MS;
}

class MemoryLoginQueue implements LoginQueue {
  readonly kind = 'memory';
  private readonly lines = new Map<number, { next: number; order: Map<string, number>; seen: Map<string, number>; served: number[] }>();
  private readonly states = new Map<string, ProcessAdmission>();

  private line(world: number) {
    let line = this.lines.get(world);
    if (!line) this.lines.set(world, (line = { next: 0, order: new Map(), seen: new Map(), served: [] }));
    const now = Date.now();
    for (const [ticket, seenAt] of line.seen) {
      if (now - seenAt > TICKET_TTL_MS) {
        line.seen.delete(ticket);
        line.order.delete(ticket);
      }
    }
    while (line.served.length > 0 && now - line.served[0] > SERVED_WINDOW_MS) line.served.shift();
    return line;
  }

  async place(world: number, ticket: string, max: number): Promise<QueuePlace | undefined> {
    const line = this.line(world);
    if (!line.order.has(ticket)) {
      if (line.order.size >= max) return undefined;
      line.order.set(ticket, ++line.next);
    }
    line.seen.set(ticket, Date.now());
    const number = line.order.get(ticket)!;
    let position = 1;
    for (const other of line.order.values()) if (other < number) position++;
    return { position, length: line.order.size, servedPerSecond: line.served.length / (SERVED_WINDOW_MS / 1000) };
  }

  async places(world: number, tickets: readonly string[]): Promise<Map<string, QueuePlace>> {
    const line = this.line(world);
    const numbers = [...line.order.values()].sort((a, b) => a - b);
    const now = Date.now();
    const servedPerSecond = line.served.length / (SERVED_WINDOW_MS / 1000);
    const places = new Map<string, QueuePlace>();
    for (const ticket of tickets) {
      const number = line.order.get(ticket);
      if (number === undefined) continue;
      line.seen.set(ticket, now);
      places.set(ticket, { position: lowerBound(numbers, number) + 1, length: numbers.length, servedPerSecond });
    }
    return places;
  }

  async leave(world: number, ticket: string, served: boolean): Promise<void> {
    const line = this.line(world);
    if (!line.order.delete(ticket)) return;
    line.seen.delete(ticket);
    if (served) line.served.push(Date.now());
  }

  async lengths(worlds: readonly number[]): Promise<Map<number, number>> {
    return new Map(worlds.map((world) => [world, this.lines.has(world) ? this.line(world).order.size : 0]));
  }

  async publish(processId: string, state: ProcessAdmission): Promise<void> {
    this.states.set(processId, state);
  }

  async processes(): Promise<Map<string, ProcessAdmission>> {
    return new Map(this.states);
  }

  async forget(processId: string): Promise<void> {
    this.states.delete(processId);
  }

  async close(): Promise<void> {}
}

/** Lua: `now`, Redis' own clock in ms (one clock for every process). */
const NOW = `
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Lua: `now`, then the tickets of line KEYS[1] not asked about (in KEYS[2]) for the ttl in `ttlArg` dropped. */
const NOW_AND_PRUNE = (ttlArg: string) => `${NOW}
local dead = redis.call('zrangebyscore', KEYS[2], '-inf', now - tonumber(${ttlArg}))
for _, gone in ipairs(dead) do redis.call('zrem', KEYS[1], gone); redis.call('zrem', KEYS[2], gone) end`;

/** KEYS: order, seen, served, counter. ARGV: ticket, max, ticket ttl, served window. Returns position (-1: line full), length, served. */
const PLACE = `${NOW_AND_PRUNE('ARGV[3]')}
redis.call('zremrangebyscore', KEYS[3], '-inf', now - tonumber(ARGV[4]))
local rank = redis.call('zrank', KEYS[1], ARGV[1])
if not rank then
  if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then return {-1, redis.call('zcard', KEYS[1]), redis.call('zcard', KEYS[3])} end
  redis.call('zadd', KEYS[1], redis.call('incr', KEYS[4]), ARGV[1])
  rank = redis.call('zrank', KEYS[1], ARGV[1])
end
redis.call('zadd', KEYS[2], now, ARGV[1])
for i = 1, 4 do redis.call('pexpire', KEYS[i], tonumber(ARGV[4]) * 2) end
return {rank + 1, redis.call('zcard', KEYS[1]), redis.call('zcard', KEYS[3])}
`;

/** KEYS: order, seen, served. ARGV: ticket ttl, served window, tickets…. Returns length, served, then each ticket's position (0: not in line). */
const PLACES = `${NOW_AND_PRUNE('ARGV[1]')}
redis.call('zremrangebyscore', KEYS[3], '-inf', now - tonumber(ARGV[2]))
local answer = {redis.call('zcard', KEYS[1]), redis.call('zcard', KEYS[3])}
for i = 3, #ARGV do
  local rank = redis.call('zrank', KEYS[1], ARGV[i])
  if rank then redis.call('zadd', KEYS[2], now, ARGV[i]); answer[#answer + 1] = rank + 1 else answer[#answer + 1] = 0 end
end
return answer
`;

/** KEYS: order, seen, served. ARGV: ticket, served (1/0). */
const LEAVE = `${NOW}
local removed = redis.call('zrem', KEYS[1], ARGV[1])
redis.call('zrem', KEYS[2], ARGV[1])
if removed == 1 and ARGV[2] == '1' then redis.call('zadd', KEYS[3], now, ARGV[1]) end
return removed
`;

/** KEYS: order, seen. ARGV: ticket ttl. The line's length once the tickets nobody asked about are dropped. */
const LENGTH = `${NOW_AND_PRUNE('ARGV[1]')}
return redis.call('zcard', KEYS[1])
`;

const STATES_KEY = 'admission-processes';

type QueueRedis = Redis & {
  queuePlace(...args: Array<string | number>): Promise<[number, number, number]>;
  queueLeave(...args: Array<string | number>): Promise<number>;
  queuePlaces(...args: Array<string | number>): Promise<number[]>;
  queueLength(...args: Array<string | number>): Promise<number>;
};

class RedisLoginQueue implements LoginQueue {
  readonly kind = 'redis';
  private readonly redis: QueueRedis;

  constructor(redisUrl: string, keyPrefix: string) {
    // Fails fast while Redis is away (the callers turn that into WORLD_UNAVAILABLE); reconnects on its own.
    const redis = new Redis(redisUrl, { keyPrefix, maxRetriesPerRequest: 2, lazyConnect: false });
    redis.on('error', () => {});
    redis.defineCommand('queuePlace', { numberOfKeys: 4, lua: PLACE });
    redis.defineCommand('queueLeave', { numberOfKeys: 3, lua: LEAVE });
    redis.defineCommand('queuePlaces', { numberOfKeys: 3, lua: PLACES });
    redis.defineCommand('queueLength', { numberOfKeys: 2, lua: LENGTH });
    this.redis = redis as QueueRedis;
  }

  private keys(world: number): [string, string, string, string] {
    const base = `login-queue:${world}`;
    return [`${base}:order`, `${base}:seen`, `${base}:served`, `${base}:counter`];
  }

  async place(world: number, ticket: string, max: number): Promise<QueuePlace | undefined> {
    const [position, length, served] = await this.redis.queuePlace(...this.keys(world), ticket, max, TICKET_TTL_MS, SERVED_WINDOW_MS);
    if (position < 0) return undefined;
    return { position, length, servedPerSecond: served / (SERVED_WINDOW_MS / 1000) };
  }

  async places(world: number, tickets: readonly string[]): Promise<Map<string, QueuePlace>> {
    const [order, seen, servedKey] = this.keys(world);
    const [length, served, ...positions] = await this.redis.queuePlaces(order, seen, servedKey, TICKET_TTL_MS, SERVED_WINDOW_MS, ...tickets);
    const servedPerSecond = served / (SERVED_WINDOW_MS / 1000);
    const places = new Map<string, QueuePlace>();
    tickets.forEach((ticket, i) => {
      if (positions[i] > 0) places.set(ticket, { position: positions[i], length, servedPerSecond });
    });
    return places;
  }

  async leave(world: number, ticket: string, served: boolean): Promise<void> {
    const [order, seen, servedKey] = this.keys(world);
    await this.redis.queueLeave(order, seen, servedKey, ticket, served ? '1' : '0');
  }

  async lengths(worlds: readonly number[]): Promise<Map<number, number>> {
    const counts = await Promise.all(worlds.map((world) => {
      const [order, seen] = this.keys(world);
      return this.redis.queueLength(order, seen, TICKET_TTL_MS);
    }));
    return new Map(worlds.map((world, index) => [world, counts[index]]));
  }

  async publish(processId: string, state: ProcessAdmission): Promise<void> {
    await this.redis.hset(STATES_KEY, processId, JSON.stringify(state));
  }

  async processes(): Promise<Map<string, ProcessAdmission>> {
    const all = await this.redis.hgetall(STATES_KEY);
    const states = new Map<string, ProcessAdmission>();
    for (const [processId, text] of Object.entries(all)) {
      try {
        states.set(processId, JSON.parse(text) as ProcessAdmission);
      } catch {
        // Not ours to read: skipped.
      }
    }
    return states;
  }

  async forget(processId: string): Promise<void> {
    await this.redis.hdel(STATES_KEY, processId);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
