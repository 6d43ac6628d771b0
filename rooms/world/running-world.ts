/**
 * The running WorldRooms of each server (one process runs several numbered worlds), keyed by its GameContext, for
 * the code outside the rooms that reads the live world: the REST routes (players online, positions, the voice
 * grant's room) and the server's cluster forwarding. The agents area (features/agents.ts) registers each room when
 * it installs and removes it when the room stops. Read-only use; actions go through `dispatch`, the same handlers
 * the players' own messages use.
 */
import type { Client } from '@colyseus/core';
import type { GameContext } from '../../src/context.ts';
import type { WorldApi } from './world-api.ts';

export interface RunningWorld extends WorldApi {
  readonly roomId: string;
  /**
   * The room's message entry point: validation, rate limit, handler, `error` event on refusal. Returns a promise
   * only when the event waits or its handler awaits.
   */
  dispatch(client: Client, type: string, data: unknown): void | Promise<void>;
}

const worlds = new WeakMap<GameContext, Map<number, RunningWorld>>();

export function isRunningWorld(world: WorldApi): world is RunningWorld {
  const candidate = world as Partial<RunningWorld>;
  return typeof candidate.dispatch === 'function' && typeof candidate.roomId === 'string';
}

/** Adds the world under its number; returns what removes it again (when the room stops). */
export function registerWorld(context: GameContext, world: RunningWorld): () => void {
  let byNumber = worlds.get(context);
  if (!byNumber) worlds.set(context, byNumber = new Map());
  const registry = byNumber;
  registry.set(world.worldNumber, world);
  return () => {
    if (registry.get(world.worldNumber) === world) registry.delete(world.worldNumber);
  };
}

/** Every running world of this server, lowest number first. */
export function runningWorlds(context: GameContext): RunningWorld[] {
  return [...(worlds.get(context)?.values() ?? [])].sort((a, b) => a.worldNumber - b.worldNumber);
}

/** The running world with that number on this server, if any. */
export function worldNumbered(context: GameContext, world: number): RunningWorld | undefined {
  return worlds.get(context)?.get(world);
}

/** The running world the character is in on this server (the one whose `player(id)` has it), if any. */
export function worldOfCharacter(context: GameContext, characterId: string): RunningWorld | undefined {
  for (const world of worlds.get(context)?.values() ?? []) {
    if (world.player(characterId)) return world;
  }
  return undefined;
}

/** The lowest-numbered running world of this server, or undefined when none runs (the default world of a request that names none). */
export function worldOf(context: GameContext): RunningWorld | undefined {
  return runningWorlds(context)[0];
}
