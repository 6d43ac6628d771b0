/**
 * Boots a game server from a configuration, following the spec's startup sequence (steps 2–7; step 1 is the
 * caller's), and returns a handle that shuts it down in order. Used by main.ts and by the tests alike.
 */
import path from 'node:path';
import http, { type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, createRouter, matchMaker } from '@colyseus/core';
import express, { Router } from 'express';
import { codedError } from '../rooms/game-error.ts';
import { TradeRoom } from '../rooms/TradeRoom.ts';
import { createAdminTradesRouter } from './http/routes/admin-trades.ts';
import { WorldRoom } from '../rooms/WorldRoom.ts';
import { AuthService } from './auth/service.ts';
import { AutoSave } from './autosave.ts';
import { forwardWorldBoundApi } from './http/world-api-forwarder.ts';
import { worldProcessOfRequest } from './http/world-process.ts';
import { createCluster } from './cluster/cluster.ts';
import { createLoginQueue } from './cluster/login-queue.ts';
import { LoopLag } from './observability/loop-lag.ts';
import { localAdmission, measureHeadroom, placementView, startAdmission } from '../rooms/entry/admission-gate.ts';
import type { Config } from './config.ts';
import { setGameContext, type GameContext } from './context.ts';
import { openDatabase, type Database } from './db/database.ts';
import { forgetAllWorlds } from './db/worlds.ts';
import { StandingWorlds } from '../rooms/world/standing-worlds.ts';
import { WORLD_ROOM } from '../rooms/entry/world-choice.ts';
import { startLocalPostgres } from './db/local-postgres.ts';
import { configureHttpApp, JSON_BODY_LIMIT } from './http/app.ts';
import { clientBuildPresent, createFrontend } from './http/frontend.ts';
import { createPlayPage, playPageEnabled } from './http/play-page.ts';
import { createOperatorToolsRouter } from './http/operator-tools.ts';
import { installMatchmakerRefusals, limitMatchmakerBodies, matchmakerProblemResponse } from './http/matchmaker-errors.ts';
import { corsMiddleware, createOriginPolicy, installOriginPolicy, routeAroundColyseus, upgradeOriginAllowed } from './http/cors.ts';
import { installClientAddressHeaders } from './limits/client-address.ts';
import { installRequestLog } from './http/request-log.ts';
import { createLimiterBackend, limiterBackendOptions } from './limits/store.ts';
import { createGameApi } from './http/routes/api.ts';
import { createAuthRouter } from './http/routes/auth.ts';
import { createMetricsRouter } from './http/routes/metrics.ts';
import { createErrorsDocRouter } from './http/routes/errors-doc.ts';
import { createWorldMapRouter } from './http/routes/world-map.ts';
import { edgeGuards } from './http/security.ts';
import { healthRouter } from './http/routes/health.ts';
import { createManifestsRouter } from './http/routes/manifests.ts';
import { createSkillUnlocksRouter } from './http/routes/skill-unlocks.ts';
import { consoleStyleLogger, type Logger } from './logger.ts';
import { ConnectionCaps } from './transport/connection-caps.ts';
import { createGameTransport } from './transport/game-transport.ts';
import { SlicedQueue } from './sliced-queue.ts';
import { loadManifests } from './manifests/load-manifests.ts';
import { GameMetrics } from './observability/metrics.ts';
import { skillUnlocksFromManifestFiles } from './manifests/skill-unlocks.ts';

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** Tests: start the embedded database from this migrated image instead of the data directory. */
  pgliteTemplate?: Blob;
}

export interface GameServer {
  readonly port: number;
  readonly httpServer: HttpServer;
  readonly context: GameContext;
  /** Stops accepting, lets rooms save, runs the last auto-save, closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Connections the kernel holds for the server before it accepts them (capped by net.core.somaxconn): Node's default,
 * 511, overflowed under an entry storm of thousands of logins at once and reset the rest (docs/worlds.md).
 */
const LISTEN_BACKLOG = 4_096;

/**
 * Milliseconds of client message handling run in one go (the world's delivery yields alike, every 4 ms): /ws frames and
 * SDK room messages read together wait for later turns instead of delaying the tick. The clock is read every
 * INBOUND_CHECK messages.
 */
const INBOUND_SLICE_MS = 4;
const INBOUND_CHECK = 8;

/** Headers and request timeouts that keep slow or idle clients from holding sockets (slowloris). */
function hardenHttpServer(server: HttpServer): void {
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
}

export async function startServer({ config, logger, pgliteTemplate }: StartOptions): Promise<GameServer> {
  const step = (n: number, message: string, extra: object = {}) => logger.info({ step: n, ...extra }, message);

  const manifests = await loadManifests({
    cdnUrl: config.publicCdnUrl,
    cacheDir: path.join(config.worldDir, 'assets', 'manifests'),
    mode: config.nodeEnv,
    ci: config.ci,
    skipManifests: config.skipManifests,
    logger,
  });
  step(2, 'manifests loaded', { source: manifests.source, files: manifests.files.size });

  const databaseUrl = config.databaseUrl ?? (config.useLocalPostgres ? await startLocalPostgres(logger) : undefined);
  const db: Database = await openDatabase({
    databaseUrl,
    pgliteDataDir: pgliteTemplate ? 'memory://' : config.pgliteDataDir,
    pgliteTemplate,
    whenMissing: config.isProduction && !config.databaseInit ? 'refuse' : 'create',
    // A stalled holder's transaction must not keep a world's row locked past its lease (a takeover waits on it).
    idleInTransactionMs: config.worldLeaseSeconds * 1000,
  });
  step(3, 'database connected and migrated', { database: db.kind, appliedMigrations: db.appliedMigrations });

  const autosave = new AutoSave(config.saveIntervalSeconds, logger);
  const online = new Set<string>();
  const metrics = new GameMetrics({ playersOnline: () => online.size, rooms: () => matchMaker.stats.local.roomCount });
  metrics.watchDatabase(db);
  const limits = await createLimiterBackend({ ...limiterBackendOptions(config, logger), onReject: metrics.rateLimited });
  const auth = new AuthService({ config, logger, db, limits });
  const loopLag = new LoopLag();
  const loginQueue = createLoginQueue(config.redisUrl, config.clusterKeyPrefix);
  const inbound = new SlicedQueue({
    sliceMs: INBOUND_SLICE_MS,
    checkEvery: INBOUND_CHECK,
    onError: (error) => logger.error({ err: error }, 'client message handling failed'),
    onWait: (waitedMs) => metrics.observeInboundWait(waitedMs / 1000),
  });
  const context: GameContext = {
    config, logger, db, autosave, auth, metrics, loopLag, loginQueue, inbound, data: manifests.data, online, leaving: new Map(), pendingWrites: new Set(),
  };
  setGameContext(context);

  const api = createGameApi(context);
  const httpServer = http.createServer();
  hardenHttpServer(httpServer);
  const frontend = Router();
  const originPolicy = createOriginPolicy(config);
  installOriginPolicy(originPolicy);
  const cluster = createCluster(config, logger, placementView);
  const caps = new ConnectionCaps({
    maxPerAddress: config.wsMaxConnectionsPerAddress,
    maxUnauthenticatedPerAddress: config.wsMaxUnauthenticatedPerAddress,
    redisUrl: config.disableRateLimit ? undefined : config.redisUrl,
    keyPrefix: config.rateLimitKeyPrefix,
    logger,
    onRefuse: (refusal) => metrics.rateLimited(refusal),
  });
  const transport = createGameTransport({
    server: httpServer,
    caps: config.disableRateLimit ? undefined : caps,
    cluster: cluster.enabled ? { cluster, relaySecret: config.jwtSecret } : undefined,
    originAllowed: (origin) => upgradeOriginAllowed(origin, originPolicy),
    services: {
      logger,
      inbound,
      authTimeoutMs: config.wsAuthTimeoutMs,
      authenticate: async (token, address) => {
        const { identity, session } = await auth.authenticateSocket({ token, address });
        return { identity, issuedToken: session && { token: session.token, expiresAt: session.expiresAt } };
      },
      createMessageLimiter: () => auth.createMessageLimiter(),
      toCodedError: codedError,
      countOutbound: (type) => metrics.countOutbound(type),
    },
  });
  let httpApp: express.Express | undefined;
  const colyseus = new Server({
    ...cluster.serverOptions,
    transport,
    logger: consoleStyleLogger(logger.child({ source: 'colyseus' })),
    greet: false,
    gracefullyShutdown: false,
    express: (app) => {
      httpApp = app as express.Express;
      api.attach(app as express.Express);
      configureHttpApp(app as express.Express, {
        logger,
        trustProxy: config.trustProxy,
        guards: [
          metrics.httpMiddleware(),
          corsMiddleware(originPolicy),
          ...edgeGuards(config, auth),
          ...(cluster.enabled ? [forwardWorldBoundApi({
            cluster,
            secret: config.jwtSecret,
            // Routing only needs the token's signature (any scope); the answering process authenticates in full.
            whereAnswered: worldProcessOfRequest(db, async (token) => auth.tokens.verify(token)),
          })] : []),
          api.guard,
        ],
        routers: [
          healthRouter(config, {
            playersOnline: () => context.online.size,
            rooms: () => matchMaker.stats.local.roomCount,
            worlds: () => {
              const admission = localAdmission();
              return metrics.worldStatus().map((world) => ({ ...world, ...(admission.get(world.world) ?? { admission: 'open', queue: 0 }) }));
            },
            admission: () => ({ ...measureHeadroom(context), loopLagP99Ms: Math.round(loopLag.p99Ms() * 10) / 10 }),
            processId: () => matchMaker.processId,
          }),
          createManifestsRouter(manifests.files),
          createSkillUnlocksRouter(manifests.data?.skillUnlocks ?? skillUnlocksFromManifestFiles(manifests.files)),
          createAuthRouter(auth, db),
          createErrorsDocRouter(logger),
          createMetricsRouter(metrics, auth, config.metricsToken),
          createAdminTradesRouter(db),
          createOperatorToolsRouter({ config, auth, logger }),
          createWorldMapRouter(metrics, auth),
          ...api.routers,
        ],
        fallbacks: [frontend],
      });
    },
  });
  // Matchmaking refusals are 4xx problem details with stable codes, never Colyseus' 52x codes (matchmaker-errors.ts).
  installMatchmakerRefusals(logger);
  colyseus.router = createRouter({}, { onResponse: matchmakerProblemResponse });
  // Fullest first: joinOrCreate fills the open worlds before opening another (rooms/entry/world-choice.ts).
  colyseus.define(WORLD_ROOM, WorldRoom).sortBy({ clients: -1 });
  colyseus.define('trade', TradeRoom);

  try {
    await colyseus.listen(config.port, config.host, LISTEN_BACKLOG);
  } catch (error) {
    await auth.stop();
    await caps.close();
    await db.close();
    await loginQueue.close();
    loopLag.stop();
    throw error;
  }
  // Colyseus keeps its own routes (matchmaking); every other request goes straight to Express and its CORS (cors.ts).
  routeAroundColyseus(httpServer, httpApp!, (method, path) => path.startsWith('/matchmake/') || colyseus.router.findRoute(method, path) !== undefined);
  // Matchmaking bodies get the REST API's JSON limit (Colyseus reads them whole, unbounded).
  limitMatchmakerBodies(httpServer, JSON_BODY_LIMIT);
  installClientAddressHeaders(httpServer, config.trustProxy);
  installRequestLog(httpServer, logger);
  const port = (httpServer.address() as AddressInfo).port;
  step(4, 'HTTP server listening', { port });
  step(5, 'WebSocket handlers ready', { path: '/ws', colyseus: true, scaleOut: cluster.enabled });

  // Without REDIS_URL this process is the only one (docs/scaling.md): world rows left by an earlier run (a crash)
  // are stale, and a restart must not wait for their leases to lapse. With REDIS_URL other processes' worlds are
  // live: a world is taken over only once its lease has lapsed by PostgreSQL's clock (src/db/worlds.ts).
  if (!cluster.enabled) await forgetAllWorlds(db);
  await cluster.start(port);
  const standing = new StandingWorlds({
    db, worldsMin: config.worldsMin, everyMs: (config.worldLeaseSeconds * 1000) / 2, logger,
    lock: (work) => cluster.withWorldLock(work),
  });
  await standing.open();
  standing.keep();
  autosave.start();
  const stopAdmission = startAdmission(context);
  metrics.watchAdmission(localAdmission);
  auth.start(matchMaker.presence);
  step(6, 'world started', { saveIntervalSeconds: config.saveIntervalSeconds });

  if (clientBuildPresent(config.clientBuildDir)) {
    frontend.use(createFrontend(config.clientBuildDir));
    step(7, 'serving the client build', { dir: config.clientBuildDir });
  } else if (playPageEnabled(config)) {
    frontend.use(createPlayPage());
    step(7, 'no client build: serving the play page at /', { dir: config.clientBuildDir, path: '/' });
  } else {
    step(7, 'no client build served (no index.html)', { dir: config.clientBuildDir });
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      logger.info('shutting down: no new connections, rooms saving');
      await standing.stop();
      await stopAdmission();
      await cluster.stop();
      await colyseus.gracefullyShutdown(false);
      httpServer.closeAllConnections();
      // Players whose reconnection seat was released by the shutdown are saved asynchronously: wait for them.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled([...context.pendingWrites]);
      // /ws clients get their 1012 close frames before the remaining connections are cut.
      await transport.socketsClosed();
      await autosave.stop();
      await auth.stop();
      await caps.close();
      await db.close();
      await loginQueue.close();
      loopLag.stop();
      metrics.close();
      setGameContext(undefined);
      logger.info('shutdown complete');
    })();
    return closing;
  };

  return { port, httpServer, context, close };
}
