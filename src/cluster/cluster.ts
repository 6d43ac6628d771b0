/**
 * Scale-out on Colyseus' distributed engine (docs/scaling.md). With REDIS_URL set, every process shares one
 * RedisPresence and one RedisDriver (room listings), so matchmaking on any process finds every world wherever it
 * runs. World rooms are placed by Colyseus' default `selectProcessIdToCreateRoom` (the least-loaded process); trade
 * rooms open on the calling process, which is the process of the world room that creates them, so a swap never
 * crosses processes. SDK clients reach a world's process through the `publicAddress` in their seat reservation; /ws
 * JSON clients are handed over to it by the process they connected to (src/cluster/ws-relay.ts). The WORLDS_MIN
 * standing worlds are kept listed: opened at start, and reopened elsewhere when their process dies. Without
 * REDIS_URL the server is a single process and all of this is inert.
 */
import { matchMaker, type IRoomCache, type Presence, type ServerOptions } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { accountChangedElsewhere, relayAccountChanges } from '../db/account-changes.ts';
import type { Logger } from '../logger.ts';

const INTERNAL_ADDRESSES_KEY = 'internal-addresses';
const WORLD_LOCK_KEY = 'world-create-lock';
const WORLD_LOCK_SECONDS = 15;
const WORLD_WAIT_MS = 20_000;
const ACCOUNT_CHANGES_CHANNEL = 'account-changed';

export interface ProcessLocation {
  processId: string;
  /** host:port other processes reach this one at (/ws hand-over, REST forwarding). */
  internalAddress: string;
}

export interface Cluster {
  readonly enabled: boolean;
  /** Spread into the Colyseus Server options. */
  readonly serverOptions: Partial<ServerOptions>;
  /**
   * After listening: announce this process' internal address and make sure the standing worlds are listed.
   * `openStandingWorlds(missing)` opens that many (the caller's matchmaker places them).
   */
  start(port: number, openStandingWorlds: (missing: number) => Promise<unknown>): Promise<void>;
  /** Where a process runs when it is another one; undefined for this process or an unknown one. */
  locate(processId: string): Promise<ProcessLocation | undefined>;
  /** A process stopped answering: when Colyseus' health check confirms it, its listings go and its standing worlds reopen. */
  recoverProcess(location: ProcessLocation): Promise<void>;
  stop(): Promise<void>;
}

const SINGLE_PROCESS: Cluster = {
  enabled: false,
  serverOptions: {},
  async start(_port, openStandingWorlds) {
    await openStandingWorlds(Number.POSITIVE_INFINITY);
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
  private readonly config: Config;
  private readonly logger: Logger;
  private openStandingWorlds: ((missing: number) => Promise<unknown>) | undefined;

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
      // A trade room opens beside the world room that creates it; everything else goes to the least-loaded process.
      selectProcessIdToCreateRoom: async (roomName, options) =>
        roomName === 'trade' ? matchMaker.processId : defaultSelection(roomName, options),
    };
  }

  async start(port: number, openStandingWorlds: (missing: number) => Promise<unknown>): Promise<void> {
    this.openStandingWorlds = openStandingWorlds;
    const internal = this.config.internalAddress ?? defaultInternalAddress(this.config.host, port);
    await this.presence.hset(INTERNAL_ADDRESSES_KEY, matchMaker.processId, internal);
    // REST is answered by any process (the caller's world's, or the one it reached): every process' cache of
    // GET /api/v1/player must hear an account change made on another.
    await this.presence.subscribe(ACCOUNT_CHANGES_CHANNEL, (message: { from?: string; accountId?: string }) => {
      if (message.from !== matchMaker.processId && typeof message.accountId === 'string') accountChangedElsewhere(message.accountId);
    });
    relayAccountChanges((accountId) => void Promise.resolve(this.presence.publish(ACCOUNT_CHANGES_CHANNEL, { from: matchMaker.processId, accountId }))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not relay an account change')));
    await this.ensureStandingWorlds();
  }

  private async missingStandingWorlds(): Promise<number> {
    const worlds = (await matchMaker.query({ name: 'world' })) as Array<IRoomCache & { metadata?: { standing?: boolean } }>;
    return Math.max(0, this.config.worldsMin - worlds.filter((world) => world.metadata?.standing === true).length);
  }

  /** Opens the standing worlds that are not listed; a short Redis lock keeps two processes from both opening them. */
  private async ensureStandingWorlds(afterDeath = false): Promise<void> {
    const deadline = Date.now() + WORLD_WAIT_MS;
    while (Date.now() < deadline) {
      if (!afterDeath && await this.missingStandingWorlds() === 0) return;
      const holders = await this.presence.incr(WORLD_LOCK_KEY);
      if (holders === 1) {
        await this.presence.expire(WORLD_LOCK_KEY, WORLD_LOCK_SECONDS);
        try {
          const missing = await this.missingStandingWorlds();
          // After a process died the callback runs even with nothing missing: it forgets the dead worlds' claims.
          if (missing > 0 || afterDeath) await this.openStandingWorlds!(missing);
          if (missing > 0) {
            this.logger.info({ processId: matchMaker.processId, opened: missing }, 'opened the standing worlds that were not listed');
          }
          return;
        } finally {
          await this.presence.del(WORLD_LOCK_KEY);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the standing worlds did not appear and the world lock stayed taken');
  }

  async locate(processId: string): Promise<ProcessLocation | undefined> {
    if (processId === matchMaker.processId) return undefined;
    const internalAddress = await this.presence.hget(INTERNAL_ADDRESSES_KEY, processId);
    return internalAddress ? { processId, internalAddress } : undefined;
  }

  async recoverProcess(location: ProcessLocation): Promise<void> {
    const alive = await matchMaker.healthCheckProcessId(location.processId);
    if (alive) return;
    this.logger.warn({ processId: location.processId }, 'a process is gone: its rooms are unlisted and the standing worlds reopen');
    await this.presence.hdel(INTERNAL_ADDRESSES_KEY, location.processId);
    await this.ensureStandingWorlds(true);
  }

  async stop(): Promise<void> {
    relayAccountChanges(undefined);
    await this.presence.hdel(INTERNAL_ADDRESSES_KEY, matchMaker.processId).catch(() => {});
  }
}

export function createCluster(config: Config, logger: Logger): Cluster {
  return config.redisUrl ? new RedisCluster(config, logger, config.redisUrl) : SINGLE_PROCESS;
}
