/**
 * The room listings in Redis: Colyseus' RedisDriver with one fix. The driver shares one HGETALL of the listings
 * between the queries made while it is in flight, and forgets it only when it succeeds. One failed read — a command
 * refused while ioredis reconnects after a Redis restart ("Reached the max retries per request limit") — was then
 * handed to every later query of the process, for ever: no entry through that process could find a world again
 * (found by the chaos run, docs/chaos.md). Here the shared read is forgotten once it settles, either way. A listing's
removal never rejects (below).
 *
 * The driver's read (`getRooms`) is private, so this instance's is replaced; the constructor refuses to start if
 * a Colyseus upgrade renames it, and test/cluster/room-listing-driver.test.ts proves the fix on a real Redis.
 */
import { initializeRoomCache, type IRoomCache } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import type { Redis } from 'ioredis';

/** The driver's hash of listings (the client's key prefix applies). */
const ROOMCACHES_KEY = 'roomcaches';
/** A removal that failed is tried again this often, this many times (a Redis restart or a cut path). */
const REMOVE_RETRY_MS = 1_000;
const REMOVE_ATTEMPTS = 30;

export class RoomListingDriver extends RedisDriver {
  private readonly redis: Redis;
  private reading: Promise<Record<string, string>> | undefined;

  constructor(redis: Redis) {
    super(redis);
    this.redis = redis;
    if (typeof (RedisDriver.prototype as unknown as Record<string, unknown>).getRooms !== 'function') {
      throw new Error('@colyseus/redis-driver no longer reads listings through getRooms: review src/cluster/room-listing-driver.ts');
    }
    Object.defineProperty(this, 'getRooms', { value: (roomName?: string) => this.listings(roomName) });
  }

  /**
   * Colyseus removes a disposed room's listing without waiting for it (Room.disconnect, and the matchmaker's
   * disposeRoom): a removal refused while Redis cannot be reached was an unhandled rejection, and the listing of a
   * room that no longer exists stayed. Here it never rejects; it is tried again in the background until Redis answers.
   */
  override async remove(roomId: string): Promise<boolean> {
    try {
      return await super.remove(roomId);
    } catch {
      this.removeLater(roomId, 1);
      return false;
    }
  }

  private removeLater(roomId: string, attempt: number): void {
    if (attempt > REMOVE_ATTEMPTS) return;
    setTimeout(() => {
      super.remove(roomId).catch(() => this.removeLater(roomId, attempt + 1));
    }, REMOVE_RETRY_MS).unref();
  }

  /** The listings (of one room type when named), from one read shared by the queries made while it is in flight. */
  private listings(roomName?: string): Promise<IRoomCache[]> {
    if (!this.reading) {
      const read = this.redis.hgetall(ROOMCACHES_KEY);
      const forget = () => {
        if (this.reading === read) this.reading = undefined;
      };
      read.then(forget, forget);
      this.reading = read;
    }
    const field = roomName === undefined ? undefined : `"name":"${roomName}"`;
    return this.reading.then((all) => Object.values(all ?? {})
      .filter((raw) => field === undefined || raw.includes(field))
      .map((raw) => initializeRoomCache(JSON.parse(raw) as Partial<IRoomCache>)));
  }
}
