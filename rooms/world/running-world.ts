/**
 * The running WorldRoom of each server, keyed by its GameContext, for the code outside the room that reads the live
 * world: the REST routes (players online, positions, the voice grant's room) and the server's cluster forwarding.
 * The agents area (features/agents.ts) registers the room when it installs. Read-only use; actions go through
 * `dispatch`, the same handlers the players' own messages use.
 */
import type { Client } from '@colyseus/core';
import type { GameContext } from '../../src/context.ts';
import type { WorldApi } from './world-api.ts';

export interface RunningWorld extends WorldApi {
  readonly roomId: string;
  /** The room's message entry point: validation, rate limit, handler, `error` event on refusal. */
  dispatch(client: Client, type: string, data: unknown): Promise<void>;
}

const worlds = new WeakMap<GameContext, RunningWorld>();

export function isRunningWorld(world: WorldApi): world is RunningWorld {
  const candidate = world as Partial<RunningWorld>;
  return typeof candidate.dispatch === 'function' && typeof candidate.roomId === 'string';
}

export function registerWorld(context: GameContext, world: RunningWorld): void {
  worlds.set(context, world);
}

/** The running world of this server, or undefined before it started. */
export function worldOf(context: GameContext): RunningWorld | undefined {
  return worlds.get(context);
}
