/**
 * Scale-out on Colyseus' distributed engine (docs/scaling.md). With REDIS_URL set, every process shares one
 * RedisPresence and one RedisDriver (room listings), so matchmaking on any process finds the world room wherever
 * it runs. The world is one room hosted by one process (the first to start; another takes over when that process
 * is gone); trade rooms are created beside it so a swap never crosses processes. SDK clients reach the owning
 * process through the `publicAddress` in their seat reservation; /ws JSON clients are relayed to it
 * (src/cluster/ws-relay.ts). Without REDIS_URL the server is a single process and all of this is inert.
 */
import { matchMaker, type IRoomCache, type Presence, type ServerOptions } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';

/** Room types that live on the process of the world room. */
const WORLD_BOUND_ROOMS = new Set(['world', 'trade']);
const INTERNAL_ADDRESSES_KEY = 'internal-addresses';
const WORLD_LOCK_KEY = 'world-create-lock';
const WORLD_LOCK_SECONDS = 15;
const WORLD_WAIT_MS = 20_000;
/** A found world location is reused this long; a hop that cannot reach it forgets it at once (recoverWorld). */
const WORLD_LOCATION_REUSE_MS = 1_000;

export interface WorldLocation {
  processId: string;
  /** host:port other processes relay /ws sockets to. */
  internalAddress: string;
}

export interface Cluster {
  readonly enabled: boolean;
  /** Spread into the Colyseus Server options. */
  readonly serverOptions: Partial<ServerOptions>;
  /** After listening: announce this process' internal address and make sure a world room runs somewhere. */
  start(port: number, createWorld: () => Promise<unknown>): Promise<void>;
  /** Where the world room runs when that is another process; undefined when it is this one (or none yet). */
  remoteWorld(): Promise<WorldLocation | undefined>;
  /** The world's process stopped answering: clean its listings up and host the world here if it is gone. */
  recoverWorld(location: WorldLocation): Promise<void>;
  stop(): Promise<void>;
}

const SINGLE_PROCESS: Cluster = {
  enabled: false,
  serverOptions: {},
  async start(_port, createWorld) {
    await createWorld();
  },
  async remoteWorld() {
    return undefined;
  },
  async recoverWorld() {},
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
  private readonly config: Config;
  private readonly logger: Logger;
  private createWorld: (() => Promise<unknown>) | undefined;
  /** The world's location as last found, reused for a moment instead of two Redis round trips per hop. */
  private knownWorld: { location: WorldLocation; until: number } | undefined;

  constructor(config: Config, logger: Logger, redisUrl: string) {
    this.config = config;
    this.logger = logger;
    const redisOptions = { keyPrefix: config.clusterKeyPrefix, maxRetriesPerRequest: 3 };
    const presence = new RedisPresence(new Redis(redisUrl, redisOptions));
    this.presence = presence;
    const defaultSelection = matchMaker.selectProcessIdToCreateRoom;
    const publicAddress = config.publicAddress ?? (config.port > 0 ? defaultInternalAddress(config.host, config.port) : undefined);
    this.serverOptions = {
      presence,
      driver: new RedisDriver(new Redis(redisUrl, redisOptions)),
      publicAddress,
      selectProcessIdToCreateRoom: async (roomName, options) => {
        if (!WORLD_BOUND_ROOMS.has(roomName)) return defaultSelection(roomName, options);
        // Every world opens beside the others, on the process the /ws relay and the REST forwarding reach.
        return roomName === 'world' ? (await this.findWorld())?.processId ?? matchMaker.processId : matchMaker.processId;
      },
    };
  }

  async start(port: number, createWorld: () => Promise<unknown>): Promise<void> {
    this.createWorld = createWorld;
    const internal = this.config.internalAddress ?? defaultInternalAddress(this.config.host, port);
    await this.presence.hset(INTERNAL_ADDRESSES_KEY, matchMaker.processId, internal);
    await this.ensureWorld();
  }

  /** Creates the world here unless a live process hosts it; a short Redis lock keeps two processes from racing. */
  private async ensureWorld(): Promise<void> {
    const deadline = Date.now() + WORLD_WAIT_MS;
    while (Date.now() < deadline) {
      if (await this.findWorld()) return;
      const holders = await this.presence.incr(WORLD_LOCK_KEY);
      if (holders === 1) {
        await this.presence.expire(WORLD_LOCK_KEY, WORLD_LOCK_SECONDS);
        try {
          if (!(await this.findWorld())) {
            await this.createWorld!();
            this.logger.info({ processId: matchMaker.processId }, 'this process hosts the world room');
          }
          return;
        } finally {
          await this.presence.del(WORLD_LOCK_KEY);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('no world room appeared and the world lock stayed taken');
  }

  private async findWorld(): Promise<IRoomCache | undefined> {
    const [world] = await matchMaker.query({ name: 'world' });
    return world;
  }

  async remoteWorld(): Promise<WorldLocation | undefined> {
    const known = this.knownWorld;
    if (known && Date.now() < known.until) return known.location;
    const world = await this.findWorld();
    if (!world || world.processId === matchMaker.processId) return undefined;
    const internalAddress = await this.presence.hget(INTERNAL_ADDRESSES_KEY, world.processId);
    if (!internalAddress) return undefined;
    const location = { processId: world.processId, internalAddress };
    this.knownWorld = { location, until: Date.now() + WORLD_LOCATION_REUSE_MS };
    return location;
  }

  async recoverWorld(location: WorldLocation): Promise<void> {
    this.knownWorld = undefined;
    const alive = await matchMaker.healthCheckProcessId(location.processId);
    if (alive) return;
    this.logger.warn({ processId: location.processId }, 'the world process is gone; taking the world over');
    await this.presence.hdel(INTERNAL_ADDRESSES_KEY, location.processId);
    await this.ensureWorld();
  }

  async stop(): Promise<void> {
    await this.presence.hdel(INTERNAL_ADDRESSES_KEY, matchMaker.processId).catch(() => {});
  }
}

export function createCluster(config: Config, logger: Logger): Cluster {
  return config.redisUrl ? new RedisCluster(config, logger, config.redisUrl) : SINGLE_PROCESS;
}
