/**
 * Prometheus metrics (prom-client) on a registry of the server's own, so tests can run several servers in one
 * process. Event-loop lag comes from prom-client's default metrics (nodejs_eventloop_lag_p99_seconds etc.),
 * whose histogram restarts at each scrape: a scrape reports the window since the previous one.
 *
 * Every `game_*` series is fed (docs/operations.md lists them with their meaning):
 * - messages out: `countOutbound` from the /ws connection and the rooms' SDK clients (outbound.ts: no allocation
 *   per message, a fixed label set);
 * - trades: `tradeEnded` from the trade session and the trade service;
 * - item transactions: the `game.db.item-transaction` diagnostics channel src/db publishes (`watchDatabase`);
 * - rate limits: `rateLimited`, handed to the limiter backend (REST, authentication attempts, WebSocket messages);
 * - client messages' wait in the process' inbound queue (/ws frames and SDK room messages): `observeInboundWait`;
 * - HTTP: `httpMiddleware`, by method, route pattern and status;
 * - worlds: `watchWorld` / `timeTick` from each WorldRoom (players and tick time per world; the world map reads
 *   the same registry), and `tickPhases` once per completed tick (time per phase, lateness, bytes per player).
 */
import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { itemTransactionChannel, type ItemTransactionTrace } from './channels.ts';
import { EventCounts, OutboundCounts } from './outbound.ts';
import type { ObservedWorld } from './world-view.ts';

const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Route label of a request no route pattern answered (404s, static files, prefix-mounted operator UIs). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The route pattern that answered a request (e.g. `/api/v1/characters/:id`), never the raw URL. */
export function routePattern(req: { route?: { path?: unknown }; baseUrl?: string }): string {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` || '/' : UNMATCHED_ROUTE;
}

/** How many of a world's latest ticks its /status tick p99 is taken over (one minute at 600 ms). */
const RECENT_TICKS = 100;

/** How many of a world's latest ticks admission by health weighs (six seconds at 600 ms). */
const ADMISSION_TICKS = 10;

function keepRecent(recent: Map<string, number[]>, key: string, value: number, keep: number): void {
  let values = recent.get(key);
  if (!values) recent.set(key, (values = []));
  values.push(value);
  if (values.length > keep) values.shift();
}

/** The phases of a world tick, in the order they run (work, then per observer: interest, encode, send; then patch). */
export const TICK_PHASES = ['work', 'interest', 'encode', 'send', 'patch'] as const;

export type TickPhases = Record<(typeof TICK_PHASES)[number], number> & {
  /** Seconds the tick started after its due time (undefined for a world's first tick). */
  latenessSeconds: number | undefined;
  /** world:update bytes written to JSON players this tick, and how many JSON players were in the world. */
  jsonBytes: number;
  jsonPlayers: number;
  /** JSON players sampled this tick, and what a naive whole-area snapshot and a bit-packed update would take them. */
  sampledPlayers: number;
  naiveSnapshotBytes: number;
  bitpackedBoundBytes: number;
};

/** The reference sizes a tick's world:update bytes are measured against (game_tick_reference_bytes_per_player). */
export const TICK_BYTE_REFERENCES = ['naive_snapshot', 'bitpacked_bound'] as const;

export class GameMetrics {
  readonly registry = new Registry();
  readonly playersOnline: Gauge;
  readonly rooms: Gauge;
  readonly worldPlayers: Gauge<'world'>;
  readonly tickDuration: Histogram<'world'>;
  readonly tickPhaseSeconds: Histogram<'phase'>;
  readonly tickLatenessSeconds: Histogram;
  readonly tickBytesPerPlayer: Histogram;
  readonly tickReferenceBytes: Histogram<'reference'>;
  readonly messagesIn: Counter<'event'>;
  readonly messagesOut: Counter<'event'>;
  readonly wsInboundWaitSeconds: Histogram;
  readonly tradesCompleted: Counter;
  readonly tradesCancelled: Counter<'reason'>;
  readonly dbTransactionSeconds: Histogram<'operation'>;
  readonly rateLimitRejections: Counter<'limit'>;
  readonly httpRequestSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly unhandledErrors: Counter;
  readonly admissionRefusals: Counter<'reason'>;
  readonly worldAdmission: Gauge<'world' | 'state'>;
  readonly loginQueueLength: Gauge<'world'>;
  /** Where the admission gauges read this process' worlds' admission state (the gate, once it runs). */
  private readonly admission: { source: () => Map<number, { admission: string; queue: number }> } = { source: () => new Map() };
  /** The world rooms of this process, by room id. */
  readonly worlds = new Map<string, ObservedWorld>();
  private readonly lastTick = new Map<string, number>();
  private readonly recentTicks = new Map<string, number[]>();
  /** Milliseconds each world's latest ticks started late (admission by health). */
  private readonly recentLateness = new Map<string, number[]>();
  private readonly outbound = new OutboundCounts();
  /** Events the rooms registered (up to 512 names), the rest as `unknown`. */
  private readonly inbound = new EventCounts([], 'unknown', 512);
  private readonly unsubscribe: Array<() => void> = [];

  constructor(live: { playersOnline(): number; rooms(): number }) {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    const registers = [this.registry];
    const worlds = this.worlds;
    const outbound = this.outbound;
    const inbound = this.inbound;
    this.playersOnline = new Gauge({
      name: 'game_players_online', help: 'Characters currently in the world', registers,
      collect() { this.set(live.playersOnline()); },
    });
    this.rooms = new Gauge({
      name: 'game_rooms', help: 'Rooms running in this process', registers,
      collect() { this.set(live.rooms()); },
    });
    this.worldPlayers = new Gauge({
      name: 'game_world_players', help: 'Players in each world of this process, by world number',
      labelNames: ['world'], registers,
      collect() {
        this.reset();
        for (const world of worlds.values()) this.set({ world: String(world.worldNumber) }, world.state.players.size);
      },
    });
    this.tickDuration = new Histogram({
      name: 'game_tick_duration_seconds', help: 'Time spent in one world tick (work and deliveries), by world number',
      labelNames: ['world'], registers, buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5],
    });
    this.tickPhaseSeconds = new Histogram({
      name: 'game_tick_phase_seconds',
      help: 'Time one world tick spends in each phase: work (the areas\' tick hooks), interest (area-of-interest updates), encode (JSON world:update frames), send (socket writes of those frames), patch (Colyseus state patches for SDK clients)',
      labelNames: ['phase'], registers, buckets: [0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5],
    });
    this.tickLatenessSeconds = new Histogram({
      name: 'game_tick_lateness_seconds', help: 'How late a world tick started after the previous one plus the tick length (a skipped tick counts)',
      registers, buckets: [0.001, 0.002, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.6, 1.2],
    });
    this.tickBytesPerPlayer = new Histogram({
      name: 'game_tick_bytes_per_player', help: 'Bytes of world:update frames written per JSON player in one tick (players sent nothing count as 0)',
      registers, buckets: [0, 32, 64, 128, 256, 512, 1024, 2048, 5000, 10_000, 50_000],
    });
    this.tickReferenceBytes = new Histogram({
      name: 'game_tick_reference_bytes_per_player',
      help: 'For one JSON player in 50, per tick: bytes a naive JSON snapshot of its whole area (naive_snapshot) and a RuneScape-style bit-packed actor update (bitpacked_bound) would take',
      labelNames: ['reference'], registers, buckets: [0, 32, 64, 128, 256, 512, 1024, 2048, 5000, 10_000, 50_000, 200_000],
    });
    this.messagesIn = new Counter({
      name: 'game_messages_in_total', help: 'Client events received, by event; unregistered events as "unknown"', labelNames: ['event'], registers,
      collect() { inbound.flushInto(this); },
    });
    this.messagesOut = new Counter({
      name: 'game_messages_out_total', help: 'Events sent to clients (JSON and SDK), by event; unlisted events as "other"',
      labelNames: ['event'], registers,
      collect() { outbound.flushInto(this); },
    });
    this.wsInboundWaitSeconds = new Histogram({
      name: 'game_ws_inbound_wait_seconds',
      help: 'How long a client message (/ws frame or SDK room message) waited in the process\' inbound queue, from its read to the start of its handling',
      registers, buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1],
    });
    this.tradesCompleted = new Counter({ name: 'game_trades_completed_total', help: 'Trades completed (items swapped)', registers });
    this.tradesCancelled = new Counter({
      name: 'game_trades_cancelled_total', help: 'Trades and trade requests that ended without a swap, by reason',
      labelNames: ['reason'], registers,
    });
    this.dbTransactionSeconds = new Histogram({
      name: 'game_db_transaction_seconds', help: 'Item-moving database transactions (retries included), by operation',
      labelNames: ['operation'], registers, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    });
    this.rateLimitRejections = new Counter({
      name: 'game_rate_limit_rejections_total', help: 'Requests or messages refused by a rate limit, by limit (rest, auth, ws_messages)',
      labelNames: ['limit'], registers,
    });
    this.httpRequestSeconds = new Histogram({
      name: 'game_http_request_duration_seconds', help: 'HTTP requests answered by the Express app, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'], registers, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    });
    this.admissionRefusals = new Counter({
      name: 'game_admission_refusals_total',
      help: 'New logins refused at the admission gate, by reason: busy (no headroom, or others queueing), full (no seat), queue_full (the login queue at LOGIN_QUEUE_MAX)',
      labelNames: ['reason'], registers,
    });
    for (const reason of ['busy', 'full', 'queue_full']) this.admissionRefusals.inc({ reason }, 0);
    const admission = this.admission;
    this.worldAdmission = new Gauge({
      name: 'game_world_admission',
      help: 'Each world of this process by admission state (1 for its state now): open, busy (no headroom), full (no seat), queueing (players wait in line)',
      labelNames: ['world', 'state'], registers,
      collect() {
        this.reset();
        for (const [world, { admission: current }] of admission.source()) {
          for (const state of ['open', 'busy', 'full', 'queueing']) this.set({ world: String(world), state }, state === current ? 1 : 0);
        }
      },
    });
    this.loginQueueLength = new Gauge({
      name: 'game_login_queue_length', help: 'Players waiting in each world\'s login queue (across every process), by world number',
      labelNames: ['world'], registers,
      collect() {
        this.reset();
        for (const [world, { queue }] of admission.source()) this.set({ world: String(world) }, queue);
      },
    });
    this.unhandledErrors = new Counter({
      name: 'game_unhandled_errors_total',
      help: 'Errors no code path handled, by kind (unhandled_rejection, uncaught_exception); each one is logged',
      labelNames: ['kind'], registers,
    });
  }

  /** A room handles this client event: it is counted under its own name. */
  registerInbound(type: string): void {
    this.inbound.admit(type);
  }

  /** One client event arrived (hot path: no allocation); unregistered names count as `unknown`. */
  countInbound(type: string): void {
    this.inbound.count(type);
  }

  /** A /ws frame's handling starts after waiting `seconds` in the inbound queue (hot path). */
  readonly observeInboundWait = (seconds: number): void => {
    this.wsInboundWaitSeconds.observe(seconds);
  };

  /** One event went to a client (hot path: no allocation). */
  countOutbound(type: string): void {
    this.outbound.count(type);
  }

  tradeEnded(status: 'completed' | 'cancelled', reason?: string | null): void {
    if (status === 'completed') this.tradesCompleted.inc();
    else this.tradesCancelled.inc({ reason: reason ?? 'unknown' });
  }

  /** A rate limit refused something; `limit` is the limiter's fixed name. */
  /** A new login refused at the admission gate (rooms/entry/admission-gate.ts). */
  admissionRefused(reason: 'busy' | 'full' | 'queue_full'): void {
    this.admissionRefusals.inc({ reason });
  }

  /** Where /metrics reads the admission state and queue length of this process' worlds. */
  watchAdmission(source: () => Map<number, { admission: string; queue: number }>): void {
    this.admission.source = source;
  }

  readonly rateLimited = (limit: string): void => {
    this.rateLimitRejections.inc({ limit });
  };

  /** Times an async operation into the DB transaction histogram. */
  async timeTransaction<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const stop = this.dbTransactionSeconds.startTimer({ operation });
    try {
      return await run();
    } finally {
      stop();
    }
  }

  /** Observes the item transactions run on `db` (through the diagnostics channel src/db publishes on). */
  watchDatabase(db: object): void {
    // tracePromise publishes asyncEnd for a settled promise, resolved or rejected: failures are timed too.
    const handlers = {
      start: (trace: ItemTransactionTrace) => {
        if (trace.db === db) trace.startedAt = performance.now();
      },
      asyncEnd: (trace: ItemTransactionTrace) => {
        if (trace.db !== db || trace.startedAt === undefined) return;
        this.dbTransactionSeconds.observe({ operation: trace.operation }, (performance.now() - trace.startedAt) / 1000);
      },
      end: () => {},
      asyncStart: () => {},
      error: () => {},
    };
    itemTransactionChannel.subscribe(handlers);
    this.unsubscribe.push(() => itemTransactionChannel.unsubscribe(handlers));
  }

  /** Registers a world room (players per world, tick time, the world map); returns the unregistration. */
  watchWorld(world: ObservedWorld): () => void {
    this.worlds.set(world.roomId, world);
    return () => {
      if (this.worlds.get(world.roomId) === world) this.worlds.delete(world.roomId);
      this.lastTick.delete(world.roomId);
      this.recentTicks.delete(world.roomId);
      this.recentLateness.delete(world.roomId);
    };
  }

  /**
   * Starts timing one tick of a world (and records how late it started, in seconds, when known); call the result when
   * the tick's deliveries are done.
   */
  timeTick(worldId: string, latenessSeconds?: number): () => void {
    const world = this.worlds.get(worldId);
    if (latenessSeconds !== undefined) keepRecent(this.recentLateness, worldId, latenessSeconds * 1000, ADMISSION_TICKS);
    const stop = this.tickDuration.startTimer({ world: world ? String(world.worldNumber) : worldId });
    return () => {
      const seconds = stop();
      this.lastTick.set(worldId, seconds);
      keepRecent(this.recentTicks, worldId, seconds, RECENT_TICKS);
    };
  }

  /**
   * Each world of this process, with its players and the milliseconds its last ADMISSION_TICKS ticks took (wall time,
   * deliveries included) and started late: what admission by health weighs (rooms/entry/admission-gate.ts).
   */
  worldLoads(): Array<{ world: number; players: number; tickMs: number[]; latenessMs: number[] }> {
    return [...this.worlds.values()].map((world) => ({
      world: world.worldNumber,
      players: world.state.players.size,
      tickMs: (this.recentTicks.get(world.roomId) ?? []).slice(-ADMISSION_TICKS).map((seconds) => seconds * 1000),
      latenessMs: [...(this.recentLateness.get(world.roomId) ?? [])],
    }));
  }

  /** The worlds of this process: number, players and the p99 of their last RECENT_TICKS tick times (/status). */
  worldStatus(): Array<{ world: number; players: number; tickP99Ms: number | null; epoch: number | null; lease: string }> {
    return [...this.worlds.values()].sort((a, b) => a.worldNumber - b.worldNumber).map((world) => {
      const recent = [...(this.recentTicks.get(world.roomId) ?? [])].sort((a, b) => a - b);
      const p99 = recent.length === 0 ? null : recent[Math.min(recent.length - 1, Math.ceil(recent.length * 0.99) - 1)];
      return {
        world: world.worldNumber, players: world.state.players.size, tickP99Ms: p99 === null ? null : Math.round(p99 * 10_000) / 10,
        epoch: world.lease?.epoch ?? null, lease: world.lease?.state ?? 'held',
      };
    });
  }

  /** Records one completed tick's phases (seconds each), its lateness, and the bytes its JSON players were sent. */
  tickPhases(phases: TickPhases): void {
    for (const phase of TICK_PHASES) this.tickPhaseSeconds.observe({ phase }, phases[phase]);
    if (phases.latenessSeconds !== undefined) this.tickLatenessSeconds.observe(phases.latenessSeconds);
    if (phases.jsonPlayers > 0) this.tickBytesPerPlayer.observe(phases.jsonBytes / phases.jsonPlayers);
    if (phases.sampledPlayers > 0) {
      this.tickReferenceBytes.observe({ reference: 'naive_snapshot' }, phases.naiveSnapshotBytes / phases.sampledPlayers);
      this.tickReferenceBytes.observe({ reference: 'bitpacked_bound' }, phases.bitpackedBoundBytes / phases.sampledPlayers);
    }
  }

  /** Seconds the world's last completed tick took. */
  lastTickSeconds(worldId: string): number | undefined {
    return this.lastTick.get(worldId);
  }

  /** Times every request the Express app answers, labelled by route pattern (bounded) and status. */
  httpMiddleware(): RequestHandler {
    return (req, res, next) => {
      const started = performance.now();
      res.once('finish', () => {
        this.httpRequestSeconds.observe({
          method: HTTP_METHODS.has(req.method) ? req.method : 'other',
          route: routePattern(req),
          status: String(res.statusCode),
        }, (performance.now() - started) / 1000);
      });
      next();
    };
  }

  /** Stops listening to channels (the server is closing). */
  close(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
  }
}
