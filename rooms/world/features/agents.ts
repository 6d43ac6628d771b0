/**
 * The world side of the AI-agent goal executor (src/agents/service.ts): registers the room so REST routes can read
 * the live world (players online, positions) and the executor can act through `dispatch`, loads a joining
 * character's agent, tells the executor when a character dies (its goal fails), and runs one executor step per tick
 * (after movement, before the area-of-interest updates).
 */
import { agentServiceOf } from '../../../src/agents/registry.ts';
import { isAgentWorld, registerWorld } from '../../../src/agents/world-link.ts';
import type { WorldFeature } from '../world-api.ts';

export const agents: WorldFeature = {
  name: 'agents',
  install(world) {
    if (!isAgentWorld(world)) throw new Error('the agents feature needs a room with dispatch and roomId');
    const context = world.context();
    registerWorld(context, world);
    world.onPlayerJoin(async (player) => {
      await agentServiceOf(context)?.characterJoined(player.id);
    });
    world.onPlayerDied((player) => {
      agentServiceOf(context)?.characterDied(player.id);
    });
    world.onTick(() => {
      agentServiceOf(context)?.tick(world);
    });
  },
};
