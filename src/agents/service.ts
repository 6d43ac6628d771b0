/**
 * AI agents: registration (a scoped, character-bound, expiring token whose jti is recorded), revocation (the token
 * is refused everywhere from then on), goal control per the spec's "Agent goal pause" table, messages, and the
 * built-in goal executor that drives the character each tick through the world's own message handlers.
 *
 * The executor (src/agents/executor/) acts on the character's live connection (`world.dispatch(player.client,
 * 'player:move' | 'player:action' | 'bank:depositAll' | …)`), so every rule a player's own message obeys
 * (validation, pathfinding, distance cap, blocked tiles, reach, the interface lock, the connection's message limit)
 * applies; it never writes positions or items itself. It runs only while the character is in the world; otherwise
 * the goal waits. One agent may be registered per character at a time.
 */
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AuthError } from '../auth/errors.ts';
import type { AuthService } from '../auth/service.ts';
import type { RevokedTokenLookup } from '../auth/session-guard.ts';
import type { Identity } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { GameContext } from '../context.ts';
import type { Database } from '../db/database.ts';
import { Agent, Character, User } from '../db/entities/index.ts';
import { loadContainers } from '../db/item-transaction.ts';
import { SKILLS, levelForXp, type Skill } from '../game/skills.ts';
import { HttpProblem } from '../http/problem.ts';
import type { Logger } from '../logger.ts';
import type { GameData } from '../manifests/game-data.ts';
import type { OnlinePlayer } from '../../rooms/world/online-player.ts';
import { stepGoal, stopActivityOf, type Step } from './executor/index.ts';
import { liveFacts } from './executor/world-view.ts';
import { automaticGoal, availableGoals, goalRefusal, type CharacterFacts } from './goal-menu.ts';
import {
  describeGoal, GoalSpec, unknownReference,
  type Goal,
  type AvailableGoal, type SetGoalBody,
} from './goals.ts';
import { actAsAgent } from './actor.ts';
import { forwardToAgentService } from './remote.ts';
import { taskOf, type AgentRuntime } from './runtime.ts';
import { worldOf, type AgentWorld } from './world-link.ts';

export type { AgentRuntime } from './runtime.ts';

/** Ticks an agent idles after its goal ended before it picks the next one itself. */
export const AUTO_SELECT_DELAY_TICKS = 3;
const RECENT_GOALS = 5;
export const MAX_AGENT_NAME = 40;

export interface GoalControlState {
  success: boolean;
  agentId: string;
  goal: Goal | null;
  goalsPaused: boolean;
  availableGoals: AvailableGoal[];
  characterOnline: boolean;
  recentGoals: Goal[];
}

export interface AgentView {
  id: string;
  name: string;
  characterId: string;
  characterName: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  expired: boolean;
  goalsPaused: boolean;
}

interface StoredGoal {
  id: string;
  spec: GoalSpec;
  source: Goal['source'];
  startedAt: string;
  /** What progress counts from (see GoalTask.baseline), once the goal ran. */
  baseline?: number;
}

/** The progress unit a goal reports before its first step. */
const INITIAL_UNITS: Record<GoalSpec['type'], string> = {
  travel: 'tiles', gather: 'items', train_skill: 'xp', kill: 'kills', bank_inventory: 'tiles',
};

export class AgentService {
  private readonly context: GameContext;
  private readonly runtimes = new Map<string, AgentRuntime>();
  private readonly byCharacter = new Map<string, string>();

  constructor(context: GameContext) {
    this.context = context;
  }

  private get db(): Database { return this.context.db; }
  private get auth(): AuthService { return this.context.auth; }
  private get config(): Config { return this.context.config; }
  private get logger(): Logger { return this.context.logger; }
  private get data(): GameData | null { return this.context.data; }

  // ---- tokens ----

  /**
   * The token check installed in the AuthService: refuses the token of a revoked agent (and one whose record names
   * another account or character). Agent-scoped tokens the server signed for other purposes have no agent record
   * and are left to the scope checks; such a token can still not steer any agent (`authorize` matches the jti).
   */
  readonly tokenCheck = async (identity: Identity): Promise<void> => {
    if (identity.scope !== 'agent' || !identity.tokenId) return;
    const agent = await this.db.em.fork().findOne(Agent, { tokenJti: identity.tokenId });
    if (agent && (agent.revokedAt || agent.characterId !== identity.characterId || agent.accountId !== identity.accountId)) {
      throw new AuthError('TOKEN_INVALID', 'this agent token was revoked');
    }
  };

  /**
   * The batch form of tokenCheck for the live-session sweep (src/auth/session-guard.ts): which of these agent
   * tokens are revoked or no longer match their agent record.
   */
  readonly revokedTokens: RevokedTokenLookup = async (tokens) => {
    const agents = await this.db.em.fork().find(Agent, { tokenJti: { $in: tokens.map((t) => t.tokenId) } },
      { fields: ['tokenJti', 'revokedAt', 'accountId', 'characterId'] });
    const byJti = new Map(agents.map((agent) => [agent.tokenJti, agent]));
    const revoked = new Set<string>();
    for (const token of tokens) {
      const agent = byJti.get(token.tokenId);
      if (agent && (agent.revokedAt || agent.characterId !== token.characterId || agent.accountId !== token.accountId)) revoked.add(token.tokenId);
    }
    return revoked;
  };

  // ---- registry (/api/agent) ----

  async register(identity: Identity, characterId: string, name: string | undefined, ttlSeconds: number | undefined): Promise<{ agent: AgentView; token: string; expiresAt: Date }> {
    const em = this.db.em.fork();
    const user = await em.findOne(User, { id: identity.accountId });
    if (!user) throw new AuthError('ACCOUNT_NOT_FOUND', 'the account of this token no longer exists');
    const character = await em.findOne(Character, { id: characterId });
    if (!character) throw new HttpProblem(404, 'CHARACTER_NOT_FOUND', 'no such character');
    if (character.accountId !== identity.accountId || (identity.characterId !== undefined && identity.characterId !== characterId)) {
      throw new HttpProblem(403, 'CHARACTER_NOT_OWNED', 'this character belongs to another account');
    }
    const now = new Date();
    // An expired agent no longer holds the character's agent seat.
    await em.nativeUpdate(Agent, { characterId, revokedAt: null, tokenExpiresAt: { $lte: now } }, { revokedAt: now });
    const roles = user.roles.filter((role) => role !== 'admin');
    const issued = this.auth.tokens.sign(
      { accountId: user.id, roles, scope: 'agent', characterId },
      { ttlSeconds: ttlSeconds ?? this.config.agentTokenTtlSeconds, notAfter: user.isTemporary && user.expiresAt ? user.expiresAt : undefined },
    );
    const jti = (jwt.decode(issued.token) as { jti?: string } | null)?.jti;
    if (!jti) throw new Error('signed token has no jti');
    const agent = em.create(Agent, {
      id: randomUUID(), accountId: user.id, characterId, name: name ?? `${character.name}'s agent`,
      tokenJti: jti, tokenExpiresAt: issued.expiresAt, goalsPaused: false, goal: null,
    });
    try {
      await em.flush();
    } catch (error) {
      if ((error as { code?: string }).code === '23505' || /unique/i.test(String(error))) {
        throw new HttpProblem(409, 'AGENT_ALREADY_REGISTERED', 'this character already has an agent; revoke it first');
      }
      throw error;
    }
    this.installRuntime(agent);
    return { agent: this.view(agent, character.name), token: issued.token, expiresAt: issued.expiresAt };
  }

  async list(accountId: string, includeRevoked: boolean, limit: number, offset: number): Promise<{ items: AgentView[]; total: number }> {
    const em = this.db.em.fork();
    const where = includeRevoked ? { accountId } : { accountId, revokedAt: null };
    const [agents, total] = await em.findAndCount(Agent, where, { orderBy: { createdAt: 'desc', id: 'asc' }, limit, offset });
    const names = await this.characterNames(agents.map((a) => a.characterId));
    return { items: agents.map((a) => this.view(a, names.get(a.characterId) ?? '')), total };
  }

  /** The agent if the caller owns it or is it: 404 AGENT_NOT_FOUND, 403 AGENT_NOT_OWNED. */
  async authorize(identity: Identity, agentId: string, options: { allowRevoked?: boolean } = {}): Promise<Agent> {
    const agent = await this.db.em.fork().findOne(Agent, { id: agentId });
    if (!agent) throw new HttpProblem(404, 'AGENT_NOT_FOUND', 'no such agent');
    const owns = identity.scope === 'agent'
      ? identity.tokenId === agent.tokenJti
      : agent.accountId === identity.accountId && (identity.characterId === undefined || identity.characterId === agent.characterId);
    if (!owns) throw new HttpProblem(403, 'AGENT_NOT_OWNED', 'this agent belongs to another account or token');
    if (agent.revokedAt && !options.allowRevoked) throw new HttpProblem(404, 'AGENT_REVOKED', 'this agent was revoked');
    return agent;
  }

  async viewOf(agent: Agent): Promise<AgentView> {
    const names = await this.characterNames([agent.characterId]);
    return this.view(agent, names.get(agent.characterId) ?? '');
  }

  /**
   * Revokes the agent: its token is refused from now on, and every live session of that token (a /ws socket or SDK
   * client in the world, on any process) ends with SESSION_REVOKED, so its owner can take the character back.
   */
  async revoke(agent: Agent): Promise<AgentView> {
    const em = this.db.em.fork();
    if (!agent.revokedAt) {
      agent.revokedAt = new Date();
      await em.nativeUpdate(Agent, { id: agent.id }, { revokedAt: agent.revokedAt });
      this.auth.sessions.tokenRevoked(agent.tokenJti);
      const runtime = this.runtimes.get(agent.id);
      if (runtime) {
        this.endGoal(runtime, 'stopped', 'the agent was revoked');
        this.cancelMovement(runtime);
        this.runtimes.delete(agent.id);
        if (this.byCharacter.get(agent.characterId) === agent.id) this.byCharacter.delete(agent.characterId);
      }
    }
    return this.viewOf(agent);
  }

  async mapping(agent: Agent) {
    const names = await this.characterNames([agent.characterId]);
    return {
      agentId: agent.id,
      agentName: agent.name,
      characterId: agent.characterId,
      characterName: names.get(agent.characterId) ?? '',
      accountId: agent.accountId,
      online: this.context.online.has(agent.characterId),
      revoked: agent.revokedAt !== null && agent.revokedAt !== undefined,
      expiresAt: agent.tokenExpiresAt.toISOString(),
    };
  }

  // ---- goal control (/api/agents/:agentId/…) ----

  async state(agent: Agent): Promise<GoalControlState> {
    return this.snapshot(await this.runtimeOf(agent));
  }

  /**
   * Sets a goal: 404 for an unknown goalId or manifest id, 409 with the refusal's code when the character cannot
   * pursue it now (goal-menu.ts: SKILL_NOT_TRAINABLE, TARGET_LEVEL_REACHED, NO_TOOL, LEVEL_TOO_LOW, …).
   */
  async setGoal(agent: Agent, body: SetGoalBody, source: Goal['source'] = 'user'): Promise<GoalControlState> {
    const runtime = await this.runtimeOf(agent);
    const facts = await this.factsOf(runtime);
    const menu = this.menu(facts);
    let spec: GoalSpec;
    if ('goalId' in body) {
      const entry = menu.find((goal) => goal.id === body.goalId);
      if (!entry) throw new HttpProblem(404, 'GOAL_NOT_FOUND', `no goal "${body.goalId}" among availableGoals`);
      spec = entry.spec;
    } else {
      spec = body;
    }
    const unknown = unknownReference(spec, this.data);
    if (unknown) throw new HttpProblem(404, unknown.code, unknown.message);
    const refusal = goalRefusal(spec, this.data, facts);
    if (refusal) throw new HttpProblem(409, refusal.code, refusal.message, { goalType: spec.type });
    this.startGoal(runtime, spec, source);
    await this.persist(runtime);
    return this.snapshot(runtime, facts);
  }

  /** goal/stop: path cancelled now, no automatic goals, the agent idles; chat keeps working. */
  async stop(agent: Agent): Promise<GoalControlState> {
    const runtime = await this.runtimeOf(agent);
    runtime.goalsPaused = true;
    this.endGoal(runtime, 'stopped', 'stopped by goal/stop');
    this.cancelMovement(runtime);
    await this.persist(runtime);
    return this.snapshot(runtime);
  }

  /** goal/resume: back to autonomous goal selection (a waiting goal runs again). */
  async resume(agent: Agent): Promise<GoalControlState> {
    const runtime = await this.runtimeOf(agent);
    runtime.goalsPaused = false;
    runtime.idleTicks = AUTO_SELECT_DELAY_TICKS;
    if (runtime.goal?.status === 'waiting') this.touch(runtime.goal, 'active', null);
    await this.persist(runtime);
    return this.snapshot(runtime);
  }

  async message(agent: Agent, text: string) {
    const runtime = await this.runtimeOf(agent);
    const serviceUrl = this.config.agentApiUrl ?? this.config.agentUrl;
    let reply: string;
    let say: string | undefined;
    let handledBy: 'builtin' | 'service';
    if (serviceUrl) {
      handledBy = 'service';
      const answer = await forwardToAgentService(serviceUrl, this.config.agentServiceTimeoutMs, {
        agentId: agent.id, characterId: agent.characterId, characterName: (await this.characterNames([agent.characterId])).get(agent.characterId) ?? '',
        message: text, goal: runtime.goal, goalsPaused: runtime.goalsPaused, availableGoals: this.menu(await this.factsOf(runtime)),
      });
      reply = answer.reply ?? '';
      say = answer.say;
      if (answer.goalsPaused === true && !runtime.goalsPaused) await this.stop(agent);
      if (answer.goalsPaused === false && runtime.goalsPaused) await this.resume(agent);
      if (answer.goal === null) {
        this.endGoal(runtime, 'stopped', 'cleared by the AI-agent service');
        await this.persist(runtime);
      } else if (answer.goal) {
        await this.setGoal(agent, answer.goal, 'service');
      }
    } else {
      handledBy = 'builtin';
      const command = await this.builtinCommand(agent, runtime, text);
      reply = command.reply;
      say = command.say;
    }
    let chatSent = false;
    if (say !== undefined) chatSent = await this.say(runtime, say);
    return { handledBy, reply, chat: { sent: chatSent, message: say ?? null }, ...(await this.snapshot(runtime)) };
  }

  quickActions(agent: Agent, runtime: GoalControlState) {
    const base = `/api/agents/${agent.id}`;
    const control = runtime.goalsPaused
      ? { id: 'resume', label: 'Resume autonomous goals', kind: 'control' as const, method: 'POST' as const, path: `${base}/goal/resume`, body: null, available: true, unavailableReason: null }
      : { id: 'stop', label: 'Stop: cancel movement and pause goals', kind: 'control' as const, method: 'POST' as const, path: `${base}/goal/stop`, body: null, available: true, unavailableReason: null };
    const chat = { id: 'say-hello', label: 'Say hello', kind: 'chat' as const, method: 'POST' as const, path: `${base}/message`, body: { message: 'say Hello!' }, available: runtime.characterOnline, unavailableReason: runtime.characterOnline ? null : 'the character is not in the world' };
    const goals = runtime.availableGoals.map((goal) => ({
      id: `goal:${goal.id}`, label: goal.description, kind: 'goal' as const, method: 'POST' as const, path: `${base}/goal`,
      body: { goalId: goal.id }, available: goal.available, unavailableReason: goal.unavailableReason,
    }));
    return { agentId: agent.id, goalsPaused: runtime.goalsPaused, actions: [control, chat, ...goals] };
  }

  // ---- world side: called by rooms/world/features/agents.ts ----

  /** A character entered the world: load its agent so the executor drives it. */
  async characterJoined(characterId: string): Promise<void> {
    if (this.byCharacter.has(characterId)) return;
    const agent = await this.db.em.fork().findOne(Agent, { characterId, revokedAt: null });
    if (agent) await this.runtimeOf(agent);
  }

  /** One executor step for every agent whose character is in the world. */
  tick(world: AgentWorld): void {
    for (const runtime of this.runtimes.values()) {
      const player = world.player(runtime.characterId);
      if (!player) {
        if (runtime.goal?.status === 'active') this.touch(runtime.goal, 'waiting', 'the character is not in the world');
        continue;
      }
      if (runtime.busy) continue;
      if (runtime.goalsPaused) continue;
      const goal = runtime.goal;
      if (!goal || goal.endedAt !== null) {
        runtime.idleTicks += 1;
        if (runtime.idleTicks >= AUTO_SELECT_DELAY_TICKS) this.selectAutomatically(runtime, player);
        continue;
      }
      if (goal.status === 'waiting') this.touch(goal, 'active', null);
      try {
        stepGoal(this.stepOf(world, runtime, goal, player));
      } catch (error) {
        this.logger.error({ err: error, agentId: runtime.agentId, goalType: goal.type }, 'agent goal step failed');
        this.finish(runtime, 'failed', 'the executor hit an internal error');
      }
    }
  }

  /** The character died: its goal fails (a fight is over, and what it carried lies at its gravestone). */
  characterDied(characterId: string): void {
    const agentId = this.byCharacter.get(characterId);
    const runtime = agentId ? this.runtimes.get(agentId) : undefined;
    if (runtime?.goal && runtime.goal.endedAt === null && !runtime.goalsPaused) this.finish(runtime, 'failed', 'the character died');
  }

  // ---- internals ----

  private stepOf(world: AgentWorld, runtime: AgentRuntime, goal: Goal, player: OnlinePlayer): Step {
    return {
      world, runtime, goal, player, task: taskOf(runtime, goal),
      finish: (status, detail) => {
        if (runtime.goal === goal) this.finish(runtime, status, detail);
      },
      send: (type, data, then) => {
        runtime.busy = true;
        world.dispatch(player.client, type, data)
          .then(() => {
            if (runtime.goal === goal) then?.();
          })
          .catch((error: unknown) => this.logger.error({ err: error, agentId: runtime.agentId, event: type }, 'agent action failed'))
          .finally(() => { runtime.busy = false; });
      },
      setBaseline: (value) => {
        const task = taskOf(runtime, goal);
        task.baseline = value;
        if (runtime.goal === goal) this.persistQuietly(runtime);
      },
      countKills: async (npcId) => {
        try {
          const [row] = await this.db.em.fork().execute<Array<{ kill_count: number }>>(
            'select kill_count from npc_kills where character_id = ? and npc_id = ?', [runtime.characterId, npcId]);
          return row ? Number(row.kill_count) : 0;
        } catch (error) {
          this.logger.error({ err: error, agentId: runtime.agentId }, 'reading the kill count failed');
          return undefined;
        }
      },
    };
  }

  private menu(facts: CharacterFacts | undefined): AvailableGoal[] {
    return availableGoals(this.data, facts);
  }

  /** What the goal menu needs to know about the character: live from the world when it is in, else stored. */
  private async factsOf(runtime: AgentRuntime): Promise<CharacterFacts | undefined> {
    const player = worldOf(this.context)?.player(runtime.characterId);
    const live = player ? liveFacts(player) : undefined;
    if (live) return live;
    const em = this.db.em.fork();
    const columns = SKILLS.flatMap((skill) => [`${skill}_level`, `${skill}_xp`]).join(', ');
    const [row] = await em.execute<Array<Record<string, number>>>(`select ${columns}, combat_level from characters where id = ?`, [runtime.characterId]);
    if (!row) return undefined;
    const containers = (await loadContainers(em, [runtime.characterId], false)).get(runtime.characterId)!;
    const levels = Object.fromEntries(SKILLS.map((skill: Skill) => [skill, Math.max(Number(row[`${skill}_level`]), levelForXp(Number(row[`${skill}_xp`])))])) as Record<Skill, number>;
    return { levels, inventory: containers.inventory, equipment: containers.equipment, combatLevel: Number(row.combat_level) };
  }

  private async snapshot(runtime: AgentRuntime, facts?: CharacterFacts): Promise<GoalControlState> {
    return {
      success: true,
      agentId: runtime.agentId,
      goal: runtime.goal,
      goalsPaused: runtime.goalsPaused,
      availableGoals: this.menu(facts ?? await this.factsOf(runtime)),
      characterOnline: this.context.online.has(runtime.characterId),
      recentGoals: runtime.recentGoals,
    };
  }

  private view(agent: Agent, characterName: string): AgentView {
    return {
      id: agent.id,
      name: agent.name,
      characterId: agent.characterId,
      characterName,
      createdAt: agent.createdAt.toISOString(),
      expiresAt: agent.tokenExpiresAt.toISOString(),
      revokedAt: agent.revokedAt ? agent.revokedAt.toISOString() : null,
      expired: agent.tokenExpiresAt.getTime() <= Date.now(),
      goalsPaused: this.runtimes.get(agent.id)?.goalsPaused ?? agent.goalsPaused,
    };
  }

  private async characterNames(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.em.fork().find(Character, { id: { $in: [...new Set(ids)] } }, { fields: ['id', 'name'] });
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  private async runtimeOf(agent: Agent): Promise<AgentRuntime> {
    return this.installRuntime(agent);
  }

  private installRuntime(agent: Agent): AgentRuntime {
    const known = this.runtimes.get(agent.id);
    if (known) return known;
    const runtime: AgentRuntime = {
      agentId: agent.id, accountId: agent.accountId, characterId: agent.characterId, goalsPaused: agent.goalsPaused,
      goal: null, recentGoals: [], idleTicks: 0, plan: undefined, task: undefined, busy: false,
    };
    const stored = agent.goal as StoredGoal | null;
    const spec = stored ? GoalSpec.safeParse(stored.spec) : undefined;
    if (stored && spec?.success) {
      runtime.goal = this.newGoal(spec.data, stored.source, stored.id, stored.startedAt);
      if (typeof stored.baseline === 'number') taskOf(runtime, runtime.goal).baseline = stored.baseline;
      if (runtime.goalsPaused) this.touch(runtime.goal, 'waiting', 'goals are paused');
    }
    if (!agent.revokedAt) {
      this.runtimes.set(agent.id, runtime);
      this.byCharacter.set(agent.characterId, agent.id);
    }
    return runtime;
  }

  private async persist(runtime: AgentRuntime): Promise<void> {
    const current = runtime.goal;
    const baseline = current && runtime.task?.goalId === current.id ? runtime.task.baseline : undefined;
    const goal = current && current.endedAt === null
      ? { id: current.id, spec: current.spec, source: current.source, startedAt: current.startedAt, ...(baseline === undefined ? {} : { baseline }) } satisfies StoredGoal
      : null;
    await this.db.em.fork().nativeUpdate(Agent, { id: runtime.agentId }, { goalsPaused: runtime.goalsPaused, goal });
  }

  private persistQuietly(runtime: AgentRuntime): void {
    this.persist(runtime).catch((error: unknown) => this.logger.error({ err: error, agentId: runtime.agentId }, 'could not save the agent goal'));
  }

  private newGoal(spec: GoalSpec, source: Goal['source'], id: string = randomUUID(), startedAt: string = new Date().toISOString()): Goal {
    return {
      id, type: spec.type, spec, description: describeGoal(spec, this.data), source, status: 'active',
      progress: { current: 0, target: 1, unit: INITIAL_UNITS[spec.type], percent: 0 },
      detail: null, startedAt, updatedAt: new Date().toISOString(), endedAt: null,
    };
  }

  private startGoal(runtime: AgentRuntime, spec: GoalSpec, source: Goal['source']): void {
    if (runtime.goal && runtime.goal.endedAt === null) this.endGoal(runtime, 'stopped', 'replaced by a new goal');
    runtime.goal = this.newGoal(spec, source);
    runtime.plan = undefined;
    runtime.task = undefined;
    runtime.idleTicks = 0;
    if (runtime.goalsPaused) this.touch(runtime.goal, 'waiting', 'goals are paused; POST goal/resume to run it');
    else if (!this.context.online.has(runtime.characterId)) this.touch(runtime.goal, 'waiting', 'the character is not in the world');
  }

  private touch(goal: Goal, status: Goal['status'], detail: string | null): void {
    goal.status = status;
    goal.detail = detail;
    goal.updatedAt = new Date().toISOString();
  }

  /** Ends the current goal (if any) and files it under recentGoals. */
  private endGoal(runtime: AgentRuntime, status: 'completed' | 'failed' | 'stopped', detail: string | null): void {
    const goal = runtime.goal;
    runtime.plan = undefined;
    runtime.task = undefined;
    runtime.idleTicks = 0;
    if (!goal || goal.endedAt !== null) {
      runtime.goal = null;
      return;
    }
    this.touch(goal, status, detail);
    goal.endedAt = goal.updatedAt;
    if (status === 'completed') goal.progress = { ...goal.progress, current: goal.progress.target, percent: 100 };
    runtime.recentGoals = [goal, ...runtime.recentGoals].slice(0, RECENT_GOALS);
    runtime.goal = null;
  }

  private finish(runtime: AgentRuntime, status: 'completed' | 'failed', detail: string | null): void {
    this.endGoal(runtime, status, detail);
    this.persistQuietly(runtime);
  }

  /**
   * Stops the character where it stands: the path is cleared (observers hear of it on the next tick) and its
   * activity (gathering, fighting) ends as if its client had sent player:action stop.
   */
  private cancelMovement(runtime: AgentRuntime): void {
    const world = worldOf(this.context);
    const player = world?.player(runtime.characterId);
    if (!world || !player) return;
    player.path = [];
    player.state.action = 'idle';
    world.markChanged(player);
    stopActivityOf(world, player);
  }

  private selectAutomatically(runtime: AgentRuntime, player: OnlinePlayer): void {
    const data = this.data;
    const facts = liveFacts(player);
    if (!data || !facts) return;
    const spec = automaticGoal(data, this.menu(facts), facts, player, runtime.recentGoals);
    if (!spec) return;
    this.startGoal(runtime, spec, 'auto');
    this.persistQuietly(runtime);
  }

  private async say(runtime: AgentRuntime, message: string): Promise<boolean> {
    const world = worldOf(this.context);
    const player = world?.player(runtime.characterId);
    if (!world || !player) throw new HttpProblem(409, 'CHARACTER_OFFLINE', 'the character is not in the world, so it cannot chat');
    // As the agent: the world refuses it admin commands and names it in audit lines (src/agents/actor.ts).
    await actAsAgent({ agentId: runtime.agentId, accountId: runtime.accountId, characterId: runtime.characterId },
      () => world.dispatch(player.client, 'player:chat', { message }));
    return true;
  }

  private async builtinCommand(agent: Agent, runtime: AgentRuntime, text: string): Promise<{ reply: string; say?: string }> {
    const trimmed = text.trim();
    const sayMatch = /^say\s+(.+)$/is.exec(trimmed);
    if (sayMatch?.[1]) return { reply: 'said in chat', say: sayMatch[1] };
    if (trimmed.startsWith('/')) return { reply: 'command sent', say: trimmed };
    if (/^(stop|pause)$/i.test(trimmed)) {
      await this.stop(agent);
      return { reply: 'stopped; goals paused' };
    }
    if (/^(resume|continue)$/i.test(trimmed)) {
      await this.resume(agent);
      return { reply: 'resumed autonomous goals' };
    }
    const travel = /^(?:travel|go|goto|walk)(?:\s+to)?\s+(.+)$/i.exec(trimmed);
    if (travel?.[1]) {
      const wanted = travel[1].trim().toLowerCase().replace(/[\s-]+/g, '_');
      const area = [...(this.data?.areasById.values() ?? [])].find((a) => a.id === wanted || a.name.toLowerCase().replace(/[\s-]+/g, '_') === wanted);
      if (!area) return { reply: `no area called "${travel[1].trim()}"` };
      await this.setGoal(agent, { type: 'travel', areaId: area.id });
      return { reply: `travelling to ${area.name}` };
    }
    const goal = commandGoal(trimmed, this.data);
    if (goal?.type === 'train_skill' && goal.targetLevel === undefined) {
      const level = (await this.factsOf(runtime))?.levels[goal.skill as Skill];
      goal.targetLevel = level === undefined ? 2 : level + 1;
    }
    if (goal) {
      const parsed = GoalSpec.safeParse(goal);
      if (!parsed.success) return { reply: `not a goal: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
      try {
        await this.setGoal(agent, parsed.data);
      } catch (error) {
        // The refusal is the reply: the message itself was fine.
        if (error instanceof HttpProblem) return { reply: `cannot: ${error.message} (${error.code})` };
        throw error;
      }
      return { reply: describeGoal(parsed.data, this.data) };
    }
    return { reply: `${runtime.goalsPaused ? 'goals are paused. ' : ''}commands: say <text>, /<command>, travel <area>, train <skill> [level], kill <npc> [count], bank, stop, resume` };
  }
}

/** `train <skill> [level]` (default: one level up), `kill <npc> [count]` (default 1), `bank`: a goal, unchecked. */
function commandGoal(text: string, data: GameData | null): Record<string, unknown> | undefined {
  if (/^bank(\s+(the\s+)?inventory)?$/i.test(text)) return { type: 'bank_inventory' };
  const train = /^train\s+([a-z]+)(?:\s+(?:to\s+)?(\d+))?$/i.exec(text);
  if (train?.[1]) {
    const skill = train[1].toLowerCase();
    return { type: 'train_skill', skill, targetLevel: train[2] ? Number(train[2]) : undefined };
  }
  const kill = /^kill\s+(\d+\s+)?(.+)$/i.exec(text);
  if (kill?.[2]) {
    const wanted = kill[2].trim().toLowerCase().replace(/[\s-]+/g, '_');
    const npcs = [...(data?.npcsById.values() ?? [])];
    // "kill 3 chickens": the plural names the type too.
    const npc = [wanted, wanted.replace(/s$/, '')].map((name) => npcs.find((n) => n.id === name || n.name.toLowerCase().replace(/[\s-]+/g, '_') === name)).find(Boolean);
    return { type: 'kill', npcId: npc?.id ?? wanted, count: kill[1] ? Number(kill[1]) : 1 };
  }
  return undefined;
}
