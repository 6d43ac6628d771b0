/**
 * The services a running server hands to its rooms. Colyseus instantiates rooms itself (and the matchmaker is
 * process-global), so rooms read the current context instead of receiving it through room options.
 */
import type { AuthService } from './auth/service.ts';
import type { AutoSave } from './autosave.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Logger } from './logger.ts';
import type { GameData } from './manifests/game-data.ts';
import type { LoginQueue } from './cluster/login-queue.ts';
import type { LoopLag } from './observability/loop-lag.ts';
import type { GameMetrics } from './observability/metrics.ts';
import type { SlicedQueue } from './sliced-queue.ts';

export interface GameContext {
  readonly config: Config;
  readonly logger: Logger;
  readonly db: Database;
  readonly autosave: AutoSave;
  /** Tokens, identity provider, attempt limits, admin gate (src/auth). */
  readonly auth: AuthService;
  readonly metrics: GameMetrics;
  /** The event loop's recent delay (admission by health). */
  readonly loopLag: LoopLag;
  /** The login queue's lines and every process' admission state (src/cluster/login-queue.ts). */
  readonly loginQueue: LoginQueue;
  /**
   * Where every client message waits its turn, /ws frame or SDK room message: one queue per process, run in time
   * slices between the worlds' ticks (src/sliced-queue.ts).
   */
  readonly inbound: SlicedQueue;
  /** The validated game data; null only when SKIP_MANIFESTS bypassed validation. */
  readonly data: GameData | null;
  /** Characters currently in the world, maintained by the WorldRoom. */
  readonly online: Set<string>;
  /**
   * Characters whose leave is still being saved, with that save: entering the world again with one waits for it
   * (it would otherwise be ALREADY_ONLINE for the moment the save takes, and read the row before the save).
   */
  readonly leaving: Map<string, Promise<unknown>>;
  /** Saves still running (e.g. players leaving during shutdown); awaited before the database closes. */
  readonly pendingWrites: Set<Promise<unknown>>;
}

let current: GameContext | undefined;

/** Registers a save the shutdown must wait for. */
export function trackWrite<T>(context: GameContext, write: Promise<T>): Promise<T> {
  context.pendingWrites.add(write);
  const forget = () => context.pendingWrites.delete(write);
  write.then(forget, forget);
  return write;
}

export function setGameContext(context: GameContext | undefined): void {
  current = context;
}

export function gameContext(): GameContext {
  if (!current) throw new Error('the game server has not been started');
  return current;
}
