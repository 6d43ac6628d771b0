/**
 * Prometheus metrics (prom-client) on a registry of the server's own, so tests can run several servers in one
 * process. Event-loop lag comes from prom-client's default metrics (nodejs_eventloop_lag_p99_seconds etc.),
 * whose histogram restarts at each scrape: a scrape reports the window since the previous one.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export class GameMetrics {
  readonly registry = new Registry();
  readonly playersOnline: Gauge;
  readonly rooms: Gauge;
  readonly tickDuration: Histogram;
  readonly messagesIn: Counter;
  readonly messagesOut: Counter;
  readonly tradesCompleted: Counter;
  readonly tradesCancelled: Counter;
  readonly dbTransactionSeconds: Histogram;
  readonly rateLimitRejections: Counter;

  constructor(live: { playersOnline(): number; rooms(): number }) {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    this.playersOnline = new Gauge({
      name: 'game_players_online', help: 'Characters currently in the world', registers: [this.registry],
      collect() { this.set(live.playersOnline()); },
    });
    this.rooms = new Gauge({
      name: 'game_rooms', help: 'Rooms running in this process', registers: [this.registry],
      collect() { this.set(live.rooms()); },
    });
    this.tickDuration = new Histogram({
      name: 'game_tick_duration_seconds', help: 'Time spent in one world tick', registers: [this.registry],
      buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5],
    });
    this.messagesIn = new Counter({
      name: 'game_messages_in_total', help: 'Client events received, by event', labelNames: ['event'], registers: [this.registry],
    });
    this.messagesOut = new Counter({
      name: 'game_messages_out_total', help: 'Events sent to clients, by event', labelNames: ['event'], registers: [this.registry],
    });
    this.tradesCompleted = new Counter({ name: 'game_trades_completed_total', help: 'Trades completed', registers: [this.registry] });
    this.tradesCancelled = new Counter({
      name: 'game_trades_cancelled_total', help: 'Trades cancelled, by reason', labelNames: ['reason'], registers: [this.registry],
    });
    this.dbTransactionSeconds = new Histogram({
      name: 'game_db_transaction_seconds', help: 'Item-moving database transactions', labelNames: ['operation'],
      registers: [this.registry], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    });
    this.rateLimitRejections = new Counter({
      name: 'game_rate_limit_rejections_total', help: 'Requests or messages refused by a rate limit, by limit',
      labelNames: ['limit'], registers: [this.registry],
    });
  }

  /** Times an async operation into the DB transaction histogram. */
  async timeTransaction<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const stop = this.dbTransactionSeconds.startTimer({ operation });
    try {
      return await run();
    } finally {
      stop();
    }
  }
}
