/**
 * AI agents (docs/api.md): the one object the REST routes and the world's agents area talk to, composed of one part
 * per job —
 *   registry.ts        which agents exist: registration, tokens, ownership, revocation
 *   goal-control.ts    each agent's goal and pause: set, stop, resume, inspect
 *   goal-runner.ts     the per-tick executor driving the characters (executor/)
 *   messages.ts        a message to the agent (chat-commands.ts parses the built-in commands; remote.ts forwards)
 *   character-facts.ts what an agent knows about its character
 * The running world is reached through the port of world-link.ts, never the rooms. Refusals are GameErrors; the
 * REST edge (src/http/routes/agents.ts) gives them their statuses and shapes the responses.
 */
import type { Identity } from '../auth/tokens.ts';
import type { GameContext } from '../context.ts';
import type { Agent } from '../db/entities/index.ts';
import { GoalControl, type GoalState } from './goal-control.ts';
import { GoalRunner } from './goal-runner.ts';
import type { Goal, SetGoalBody } from './goals.ts';
import { AgentMessages, type MessageOutcome } from './messages.ts';
import { AgentRegistry, type NamedAgent, type RegisteredAgent } from './registry.ts';
import type { AgentWorld } from './world-link.ts';

export type { AgentRuntime } from './runtime.ts';
export type { GoalState } from './goal-control.ts';

export class AgentService {
  private readonly context: GameContext;
  private readonly registry: AgentRegistry;
  private readonly goals: GoalControl;
  private readonly runner: GoalRunner;
  private readonly messages: AgentMessages;

  constructor(context: GameContext) {
    this.context = context;
    this.registry = new AgentRegistry(context);
    this.goals = new GoalControl(context);
    this.runner = new GoalRunner(context, this.goals);
    this.messages = new AgentMessages(context, this.registry, this.goals);
  }

  get tokenCheck(): AgentRegistry['tokenCheck'] { return this.registry.tokenCheck; }
  get revokedTokens(): AgentRegistry['revokedTokens'] { return this.registry.revokedTokens; }

  // ---- registry (/api/agent) ----

  async register(identity: Identity, characterId: string, name: string | undefined, ttlSeconds: number | undefined): Promise<RegisteredAgent> {
    const registered = await this.registry.register(identity, characterId, name, ttlSeconds);
    this.goals.load(registered.agent);
    return registered;
  }

  list(accountId: string, includeRevoked: boolean, limit: number, offset: number): Promise<{ items: NamedAgent[]; total: number }> {
    return this.registry.list(accountId, includeRevoked, limit, offset);
  }

  authorize(identity: Identity, agentId: string, options: { allowRevoked?: boolean } = {}): Promise<Agent> {
    return this.registry.authorize(identity, agentId, options);
  }

  /**
   * Revokes the agent: its token is refused from now on, every live session of that token (a /ws socket or SDK
   * client in the world, on any process) ends with SESSION_REVOKED so its owner can take the character back, and
   * its goal stops.
   */
  async revoke(agent: Agent): Promise<void> {
    if (await this.registry.revoke(agent)) this.goals.forget(agent);
  }

  characterName(agent: Agent): Promise<string> {
    return this.registry.characterName(agent.characterId);
  }

  goalsPaused(agent: Agent): boolean {
    return this.goals.goalsPaused(agent);
  }

  characterOnline(characterId: string): boolean {
    return this.context.online.has(characterId);
  }

  // ---- goal control (/api/agents/:agentId/…) ----

  state(agent: Agent): Promise<GoalState> {
    return this.goals.state(agent);
  }

  setGoal(agent: Agent, body: SetGoalBody, source: Goal['source'] = 'user'): Promise<GoalState> {
    return this.goals.setGoal(agent, body, source);
  }

  stop(agent: Agent): Promise<GoalState> {
    return this.goals.stop(agent);
  }

  resume(agent: Agent): Promise<GoalState> {
    return this.goals.resume(agent);
  }

  message(agent: Agent, text: string): Promise<MessageOutcome> {
    return this.messages.message(agent, text);
  }

  // ---- world side: called by the agents area (rooms/world/features/agents.ts) ----

  /** A character entered the world: load its agent so the runner drives it. */
  async characterJoined(characterId: string): Promise<void> {
    if (this.goals.drives(characterId)) return;
    const agent = await this.registry.activeAgentOf(characterId);
    if (agent) this.goals.load(agent);
  }

  /** One executor step for every agent whose character is in `world` (called by each world on its own tick). */
  tick(world: AgentWorld): void {
    this.runner.tick(world);
  }

  /** The character died: its goal fails. */
  characterDied(characterId: string): void {
    this.runner.characterDied(characterId);
  }
}

const services = new WeakMap<GameContext, AgentService>();

/** Creates the server's agent service and installs its token checks (revoked agent tokens are refused, live sessions end). */
export function createAgentService(context: GameContext): AgentService {
  const service = new AgentService(context);
  services.set(context, service);
  context.auth.addTokenCheck(service.tokenCheck);
  context.auth.sessions.addRevocationSource(service.revokedTokens);
  return service;
}

/** The agent service of the server of this context (the agents area finds it here). */
export function agentServiceOf(context: GameContext): AgentService | undefined {
  return services.get(context);
}
