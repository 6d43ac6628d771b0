/**
 * The world side of the AI agents (src/agents/service.ts). The area handles no client event; it implements the
 * agents' port (src/agents/world-link.ts) over this room — what the executor may read of a character and the world
 * near it, and `dispatch` on the character's own connection — and links it to the server, registers the room as the
 * server's running world for the REST routes (running-world.ts), loads a joining character's agent, tells the
 * agents when a character dies (its goal fails), and runs one executor step per tick (after movement, before the
 * area-of-interest updates).
 */
import { agentServiceOf } from '../../../src/agents/service.ts';
import { linkWorld, type AgentWorld } from '../../../src/agents/world-link.ts';
import { defineArea } from '../area.ts';
import type { OnlinePlayer } from '../online-player.ts';
import { isRunningWorld, registerWorld, type RunningWorld } from '../running-world.ts';
import { isNearBank } from './economy/common.ts';
import { currentActivity } from './skills/activity.ts';
import { skillBooks } from '../skill-book.ts';

/** The agents' view of this world. Every character they are handed is one of its players (from `player`). */
function agentWorldOf(world: RunningWorld): AgentWorld {
  return {
    get data() { return world.data; },
    get blocked() { return world.blocked; },
    currentTick: () => world.currentTick(),
    player: (characterId) => world.player(characterId),
    forEachNear: (x, z, radius, visit) => world.grid.forEachNear(x, z, radius, visit),
    dispatch: async (player: OnlinePlayer, type, data) => world.dispatch(player.client, type, data),
    markChanged: (player: OnlinePlayer) => world.markChanged(player),
    activityOf: (player: OnlinePlayer) => currentActivity(player),
    // Undefined while the skills load (the player is entering the world).
    skillsOf: (player: OnlinePlayer) => skillBooks.peek(player),
    isNearBank: (player: OnlinePlayer) => isNearBank(world, player),
  };
}

export const agents = defineArea({
  name: 'agents',
  messages: {},
  sends: [],
  install(world) {
    if (!isRunningWorld(world)) throw new Error('the agents area needs a room with dispatch and roomId');
    const context = world.context();
    const unregister = registerWorld(context, world);
    const agentWorld = agentWorldOf(world);
    const unlink = linkWorld(context, agentWorld);
    world.onStop(() => {
      unregister();
      unlink();
    });
    world.onPlayerJoin(async (player) => {
      await agentServiceOf(context)?.characterJoined(player.id);
    });
    world.onPlayerDied((player) => {
      agentServiceOf(context)?.characterDied(player.id);
    });
    // Each world steps only the agents whose characters are in it (a character is in one world at a time).
    world.onTick(() => {
      agentServiceOf(context)?.tick(agentWorld);
    });
  },
});
