/**
 * Who is really acting when an agent speaks through its character: the agent service runs the chat and commands
 * an agent sends (POST /api/agents/:id/message) inside `actAsAgent`, so the world can tell them from the player's
 * own messages on the same connection. Admin commands refuse them and the audit line names the agent
 * (rooms/world/features/admin/index.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AgentActor {
  agentId: string;
  accountId: string;
  characterId: string;
}

const current = new AsyncLocalStorage<AgentActor>();

/** Runs `work` as the agent: everything it awaits sees `agentActor()`. */
export function actAsAgent<T>(actor: AgentActor, work: () => Promise<T>): Promise<T> {
  return current.run(actor, work);
}

/** The agent on whose behalf the current work runs, or undefined for a player's own message. */
export function agentActor(): AgentActor | undefined {
  return current.getStore();
}
