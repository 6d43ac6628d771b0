/**
 * A world's 600 ms tick: the areas' tick work, then the delivery of what changed to every player's area of interest
 * (interest-sync.ts), cut into time slices (src/sliced-run.ts) so a crowded tick never holds message handling back,
 * then the schema patch for SDK clients, and the tick's phase costs for the metrics.
 */
import { gameContext } from '../../src/context.ts';
import { TICK_MS } from '../../src/game/ticks.ts';
import { runInSlices } from '../../src/sliced-run.ts';
import type { SpatialGrid, TrackedEntity } from './interest.ts';
import type { InterestSync } from './interest-sync.ts';
import type { OnlinePlayer } from './online-player.ts';

/** Milliseconds of a tick's delivery done in one go; the clock is read every DELIVERY_CHECK players. */
export const DELIVERY_SLICE_MS = 4;
export const DELIVERY_CHECK = 16;

/** What the tick needs of its world. */
export interface TickedWorld {
  readonly roomId: string;
  readonly grid: SpatialGrid;
  readonly interestRadius: number;
  readonly state: { tick: number };
  /** The players in the world now, by character id. */
  readonly onlinePlayers: ReadonlyMap<string, OnlinePlayer>;
  /** Sends the schema patch to SDK clients (Colyseus' broadcastPatch). */
  broadcastPatch(): unknown;
}

export class WorldTicker {
  /** Runs every tick, in the order registered (the areas' tick work). */
  readonly work: Array<(tick: number) => void> = [];
  private readonly world: TickedWorld;
  private readonly sync: InterestSync;
  /** Entities changed since the last delivery began (handlers running mid-delivery add to the next one). */
  private dirty = new Set<TrackedEntity>();
  private delivering = false;
  /** When the last tick started (performance.now()), for its successor's lateness. */
  private lastTickAt: number | undefined;

  constructor(world: TickedWorld, sync: InterestSync) {
    this.world = world;
    this.sync = sync;
  }

  /** Observers in range hear about this entity's new state on the next tick. */
  markChanged(entity: TrackedEntity): void {
    this.dirty.add(entity);
  }

  /** The entity left the world: nothing to deliver for it. */
  forget(entity: TrackedEntity): void {
    this.dirty.delete(entity);
  }

  run(): void {
    // An overloaded world skips a tick rather than piling deliveries on top of each other.
    if (this.delivering) return;
    const world = this.world;
    const metrics = gameContext().metrics;
    const startedAt = performance.now();
    const latenessSeconds = this.lastTickAt === undefined ? undefined : Math.max(0, startedAt - this.lastTickAt - TICK_MS) / 1000;
    const stopTimer = metrics.timeTick(world.roomId, latenessSeconds);
    this.lastTickAt = startedAt;
    const tick = ++world.state.tick;
    for (const work of this.work) {
      try {
        work(tick);
      } catch (error) {
        gameContext().logger.error({ err: error, tick }, 'tick work failed');
      }
    }
    const workMs = performance.now() - startedAt;
    const dirty = this.dirty;
    this.dirty = new Set();
    this.sync.beginTick(dirty);
    const observers = [...world.onlinePlayers.values()];
    let interestMs = 0;
    this.delivering = true;
    const deliverTo = (index: number) => {
      const player = observers[index];
      if (world.onlinePlayers.get(player.id) !== player) return;
      const before = performance.now();
      const diff = player.interest.update(world.grid, player.id, player.x, player.z, world.interestRadius);
      interestMs += performance.now() - before;
      this.sync.deliver(player.client, tick, diff, player.interest.visible);
    };
    const delivered = () => {
      this.delivering = false;
      const patchStarted = performance.now();
      world.broadcastPatch();
      const costs = this.sync.costs;
      metrics.tickPhases({
        work: workMs / 1000, interest: interestMs / 1000, encode: costs.encodeMs / 1000, send: costs.sendMs / 1000,
        patch: (performance.now() - patchStarted) / 1000, latenessSeconds, jsonBytes: costs.jsonBytes, jsonPlayers: costs.jsonObservers,
        sampledPlayers: costs.sampled, naiveSnapshotBytes: costs.naiveSnapshotBytes, bitpackedBoundBytes: costs.bitpackedBoundBytes,
      });
      stopTimer();
    };
    runInSlices(observers.length, deliverTo, delivered, { sliceMs: DELIVERY_SLICE_MS, checkEvery: DELIVERY_CHECK, finishBy: startedAt + TICK_MS / 2 });
  }
}
