/**
 * How REST code reaches the running world without a reference to the room: the agents world feature
 * (rooms/world/features/agents.ts) registers the WorldRoom here when it installs, keyed by the server's
 * GameContext, and the REST routes and the agent service look it up. Read-only use from REST (players online,
 * positions); actions go through `dispatch`, the same handlers the players' own messages use.
 */
import type { Client } from '@colyseus/core';
import type { GameContext } from '../context.ts';
import type { WorldApi } from '../../rooms/world/world-api.ts';

export interface AgentWorld extends WorldApi {
  readonly roomId: string;
  /** The room's message entry point: validation, rate limit, handler, `error` event on refusal. */
  dispatch(client: Client, type: string, data: unknown): Promise<void>;
}

const worlds = new WeakMap<GameContext, AgentWorld>();

export function isAgentWorld(world: WorldApi): world is AgentWorld {
  const candidate = world as Partial<AgentWorld>;
  return typeof candidate.dispatch === 'function' && typeof candidate.roomId === 'string';
}

export function registerWorld(context: GameContext, world: AgentWorld): void {
  worlds.set(context, world);
}

export function unregisterWorld(context: GameContext, world: AgentWorld): void {
  if (worlds.get(context) === world) worlds.delete(context);
}

/** The running world of this server, or undefined before it started (or after it closed). */
export function worldOf(context: GameContext): AgentWorld | undefined {
  return worlds.get(context);
}
