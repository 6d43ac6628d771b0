/**
 * Scale-out on Colyseus' distributed engine (docs/scaling.md). With REDIS_URL set, every process shares one
 * RedisPresence and one RedisDriver (room listings, room-listing-driver.ts), so matchmaking on any process finds every world wherever it
 * runs. World rooms are placed by Colyseus' default `selectProcessIdToCreateRoom` (the least-loaded process); trade
 * rooms open on the calling process, which is the process of the world room that creates them, so a swap never
 * crosses processes. SDK clients reach a world's process through the `publicAddress` in their seat reservation; /ws
 * JSON clients are handed over to it by the process they connected to (src/cluster/ws-relay.ts). Who owns a world
 * is not decided here: a world's lease in PostgreSQL (src/db/worlds.ts) decides, and a failed health check frees
 * nothing. This offers a short lock so that two processes do not both open the standing worlds, and re-announces the
 * process' internal address (a restarted Redis has lost it). Without REDIS_URL the server is a single process and
 * all of this is inert.
 */
import { randomUUID } from 'node:crypto';
import { matchMaker, type Presence, type ServerOptions } from '@colyseus/core';
import { RedisPresence } from '@colyseus/redis-presence';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { accountChangedElsewhere, relayAccountChanges } from '../db/account-changes.ts';
import type { Logger } from '../logger.ts';
import { RoomListingDriver } from './room-listing-driver.ts';

const INTERNAL_ADDRESSES_KEY = 'internal-addresses';
const WORLD_LOCK_KEY = 'world-create-lock';
/**
 * The world lock's time to live, extended every third of it while its holder works: a holder that dies (or stalls)
 * holding it keeps the standing worlds from being reopened for at most this long.
 */
const WORLD_LOCK_MS = 5_000;
/** A holder stops extending the lock after this long: one stuck (say, on a database it cannot reach) lets others try. */
const WORLD_LOCK_MAX_HOLD_MS = 15_000;
/** Deletes, or extends, the lock only while it still holds this holder's token (another may hold it since). */
const RELEASE_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
const EXTEND_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";
/** How often a process announces its internal address again (a restarted Redis has forgotten it). */
const ANNOUNCE_MS = 5_000;
const ACCOUNT_CHANGES_CHANNEL = 'account-changed';

/** What placement knows of the processes (rooms/entry/admission-gate.ts `placementView`). */
export interface PlacementView {
  busy: ReadonlySet<string>;
  stale: ReadonlySet<string>;
}

export interface ProcessLocation {
  processId: string;
  /** host:port other processes reach this one at (/ws hand-over, REST forwarding). */
  internalAddress: string;
}

export interface Cluster {
  readonly enabled: boolean;
  /** Spread into the Colyseus Server options. */
  readonly serverOptions: Partial<ServerOptions>;
  /** After listening: announce this process' internal address (again every few seconds). */
  start(port: number): Promise<void>;
  /**
   * Runs `work` while holding the short world lock, so that two processes do not open the same standing worlds at
   * once; undefined when another process holds it (or Redis cannot be reached). One process: runs it.
   */
  withWorldLock<T>(work: () => Promise<T>): Promise<T | undefined>;
  /** Where a process runs when it is another one; undefined for this process or an unknown one. */
  locate(processId: string): Promise<ProcessLocation | undefined>;
  /**
   * A process stopped answering: Colyseus health-checks it and, if it does not answer, unlists its rooms. Nothing
   * else is freed: its worlds' leases lapse on their own (src/db/worlds.ts), and only then may another process take
   * them over.
   */
  recoverProcess(location: ProcessLocation): Promise<void>;
  stop(): Promise<void>;
}

const SINGLE_PROCESS: Cluster = {
  enabled: false,
  serverOptions: {},
  async start() {},
  withWorldLock(work) {
    return work();
  },
  async locate() {
    return undefined;
  },
  async recoverProcess() {},
  async stop() {},
};

function defaultInternalAddress(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `${reachable}:${port}`;
}

class RedisCluster implements Cluster {
  readonly enabled = true;
  readonly serverOptions: Partial<ServerOptions>;
  private readonly presence: Presence;
  /**
   * For the world lock (SET NX with a token, and scripts: more than the Presence interface offers): the room
   * listing's connection, which the driver owns and closes.
   */
  private readonly locks: Redis;
  private readonly config: Config;
  private readonly logger: Logger;
  private announcer: NodeJS.Timeout | undefined;
  private lastRedisWarning = 0;

  constructor(config: Config, logger: Logger, redisUrl: string, placement: () => PlacementView) {
    this.config = config;
    this.logger = logger;
    const redisOptions = { keyPrefix: config.clusterKeyPrefix, maxRetriesPerRequest: 3 };
    // ioredis reconnects by itself; without a listener its connection errors are printed as unhandled.
    const quiet = (name: string) => (client: Redis): Redis => client.on('error', (error: Error) => this.redisTrouble(name, error));
    const presence = new RedisPresence(quiet('presence')(new Redis(redisUrl, redisOptions)));
    this.presence = presence;
    this.locks = quiet('room listing')(new Redis(redisUrl, redisOptions));
    // The least-loaded process (fewest rooms, Colyseus' own measure) among those with room for another player that
    // have not stopped publishing their state: a new world is not opened on a process at capacity (or dead, or
    // stalled) while another has headroom.
    const leastLoaded = async (): Promise<string> => {
      // Among equals, this process: it is known to be alive, and opening here needs no round trip.
      const own = (stats: { processId: string }) => (stats.processId === matchMaker.processId ? 0 : 1);
      const processes = (await matchMaker.stats.fetchAll()).sort((a, b) => a.roomCount - b.roomCount || own(a) - own(b));
      const { busy, stale } = placement();
      const pick = processes.find((stats) => !stale.has(stats.processId) && !busy.has(stats.processId))
        ?? processes.find((stats) => !busy.has(stats.processId)) ?? processes[0];
      return pick?.processId ?? matchMaker.processId;
    };
    const publicAddress = config.publicAddress ?? (config.port > 0 ? defaultInternalAddress(config.host, config.port) : undefined);
    this.serverOptions = {
      presence,
      driver: new RoomListingDriver(this.locks),
      publicAddress,
      // A trade room opens beside the world room that creates it; everything else goes to the least-loaded process.
      selectProcessIdToCreateRoom: async (roomName) =>
        roomName === 'trade' ? matchMaker.processId : leastLoaded(),
    };
  }

  async start(port: number): Promise<void> {
    const internal = this.config.internalAddress ?? defaultInternalAddress(this.config.host, port);
    await this.presence.hset(INTERNAL_ADDRESSES_KEY, matchMaker.processId, internal);
    this.announcer = setInterval(() => void Promise.resolve(this.presence.hset(INTERNAL_ADDRESSES_KEY, matchMaker.processId, internal)).catch(() => {}), ANNOUNCE_MS);
    this.announcer.unref();
    // REST is answered by any process (the caller's world's, or the one it reached): every process' cache of
    // GET /api/v1/player must hear an account change made on another.
    await this.presence.subscribe(ACCOUNT_CHANGES_CHANNEL, (message: { from?: string; accountId?: string }) => {
      if (message.from !== matchMaker.processId && typeof message.accountId === 'string') accountChangedElsewhere(message.accountId);
    });
    relayAccountChanges((accountId) => void Promise.resolve(this.presence.publish(ACCOUNT_CHANGES_CHANNEL, { from: matchMaker.processId, accountId }))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not relay an account change')));
  }

  /** A Redis connection failed: logged once a second at most (it reconnects on its own). */
  private redisTrouble(name: string, error: Error): void {
    const now = Date.now();
    if (now - this.lastRedisWarning < 1_000) return;
    this.lastRedisWarning = now;
    this.logger.warn({ connection: name, reason: error.message }, 'Redis connection failed; reconnecting');
  }

  /**
   * One SET NX with a time to live: taking the lock and its expiry are one step, so no holder (killed between two
   * steps, or cut off from Redis) can leave a lock that never expires.
   */
  async withWorldLock<T>(work: () => Promise<T>): Promise<T | undefined> {
    const token = randomUUID();
    try {
      if (await this.locks.set(WORLD_LOCK_KEY, token, 'PX', WORLD_LOCK_MS, 'NX') !== 'OK') return undefined;
    } catch {
      return undefined;
    }
    const takenAt = Date.now();
    const extender = setInterval(() => {
      if (Date.now() - takenAt > WORLD_LOCK_MAX_HOLD_MS) return clearInterval(extender);
      void this.locks.eval(EXTEND_LOCK, 1, WORLD_LOCK_KEY, token, WORLD_LOCK_MS).catch(() => {});
    }, WORLD_LOCK_MS / 3);
    extender.unref();
    try {
      return await work();
    } finally {
      clearInterval(extender);
      await this.locks.eval(RELEASE_LOCK, 1, WORLD_LOCK_KEY, token).catch(() => {});
    }
  }

  async locate(processId: string): Promise<ProcessLocation | undefined> {
    if (processId === matchMaker.processId) return undefined;
    const internalAddress = await this.presence.hget(INTERNAL_ADDRESSES_KEY, processId);
    return internalAddress ? { processId, internalAddress } : undefined;
  }

  async recoverProcess(location: ProcessLocation): Promise<void> {
    const alive = await matchMaker.healthCheckProcessId(location.processId);
    if (alive) return;
    this.logger.warn({ processId: location.processId }, 'a process does not answer: its rooms are unlisted; its worlds are taken over once their leases lapse');
  }

  async stop(): Promise<void> {
    clearInterval(this.announcer);
    relayAccountChanges(undefined);
    await this.presence.hdel(INTERNAL_ADDRESSES_KEY, matchMaker.processId).catch(() => {});
  }
}

/**
 * `placement`: the processes that published their admission state lately, and those of them that have no room for
 * another player now (rooms/entry/admission-gate.ts).
 */
export function createCluster(config: Config, logger: Logger, placement: () => PlacementView = () => ({ busy: new Set(), stale: new Set() })): Cluster {
  return config.redisUrl ? new RedisCluster(config, logger, config.redisUrl, placement) : SINGLE_PROCESS;
}
