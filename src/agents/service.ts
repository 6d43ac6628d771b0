/**
 * AI agents: registration (a scoped, character-bound, expiring token whose jti is recorded), revocation (the token
 * is refused everywhere from then on), goal control per the spec's "Agent goal pause" table, messages, and the
 * built-in goal executor that drives the character each tick through the world's own message handlers.
 *
 * The executor acts on the character's live connection (`world.dispatch(player.client, 'player:move', …)`), so
 * every rule a player's own move obeys (validation, pathfinding, distance cap, blocked tiles, the interface lock,
 * the connection's message limit) applies; it never writes positions itself. It runs only while the character is
 * in the world; otherwise the goal waits. One agent may be registered per character at a time.
 */
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AuthError } from '../auth/errors.ts';
import type { AuthService } from '../auth/service.ts';
import type { Identity } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { GameContext } from '../context.ts';
import type { Database } from '../db/database.ts';
import { Agent, Character, User } from '../db/entities/index.ts';
import { HttpProblem } from '../http/problem.ts';
import type { Logger } from '../logger.ts';
import type { GameData } from '../manifests/game-data.ts';
import type { OnlinePlayer } from '../../rooms/world/online-player.ts';
import {
  availableGoals, DEFAULT_CAPABILITIES, describeGoal, GoalSpec, unknownReference,
  type Goal,
  type AvailableGoal, type SetGoalBody,
} from './goals.ts';
import { destinationIn, distanceToRect, insideRect, waypointToward, type Tile } from './planning.ts';
import { forwardToAgentService } from './remote.ts';
import { countItem, freeSlotCount } from '../game/inventory.ts';
import { activityOf } from '../../rooms/world/features/skills/activity.ts';
import { worldOf, type AgentWorld } from './world-link.ts';

/** Ticks an agent idles after its goal ended before it picks the next one itself. */
export const AUTO_SELECT_DELAY_TICKS = 3;
/** Move targets tried per plan, farthest first (each ≤ the 64-tile move cap with the walkable-tile search). */
const STEP_SIZES = [48, 24, 12, 6];
const MAX_PLAN_FAILURES = 8;
/** How far a gather goal looks for a node that yields its item (tiles, Chebyshev). */
const GATHER_SEARCH_RADIUS = 48;
const RECENT_GOALS = 5;
export const MAX_AGENT_NAME = 40;

export interface AgentRuntime {
  agentId: string;
  accountId: string;
  characterId: string;
  goalsPaused: boolean;
  goal: Goal | null;
  recentGoals: Goal[];
  idleTicks: number;
  plan: { destination: Tile; startDistance: number; failures: number } | undefined;
  /** A gather goal's count of the item when it started, and its failed attempts to start gathering. */
  gather: { goalId: string; baseline: number; failures: number } | undefined;
  busy: boolean;
}

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
}

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

  async revoke(agent: Agent): Promise<AgentView> {
    const em = this.db.em.fork();
    if (!agent.revokedAt) {
      agent.revokedAt = new Date();
      await em.nativeUpdate(Agent, { id: agent.id }, { revokedAt: agent.revokedAt });
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

  async setGoal(agent: Agent, body: SetGoalBody, source: Goal['source'] = 'user'): Promise<GoalControlState> {
    const runtime = await this.runtimeOf(agent);
    const menu = this.menu();
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
    const reason = DEFAULT_CAPABILITIES.unavailable[spec.type];
    if (reason) throw new HttpProblem(409, 'GOAL_UNAVAILABLE', reason, { goalType: spec.type });
    this.startGoal(runtime, spec, source);
    await this.persist(runtime);
    return this.snapshot(runtime);
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
        message: text, goal: runtime.goal, goalsPaused: runtime.goalsPaused, availableGoals: this.menu(),
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
    return { handledBy, reply, chat: { sent: chatSent, message: say ?? null }, ...this.snapshot(runtime) };
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
      if (goal.spec.type === 'travel') this.stepTravel(world, runtime, goal, player);
      else if (goal.spec.type === 'gather') this.stepGather(world, runtime, goal, player);
      else this.finish(runtime, 'failed', DEFAULT_CAPABILITIES.unavailable[goal.spec.type] ?? 'the executor cannot pursue this goal');
    }
  }

  // ---- internals ----

  private menu(): AvailableGoal[] {
    return availableGoals(this.data);
  }

  private snapshot(runtime: AgentRuntime): GoalControlState {
    return {
      success: true,
      agentId: runtime.agentId,
      goal: runtime.goal,
      goalsPaused: runtime.goalsPaused,
      availableGoals: this.menu(),
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
      goal: null, recentGoals: [], idleTicks: 0, plan: undefined, gather: undefined, busy: false,
    };
    const stored = agent.goal as StoredGoal | null;
    const spec = stored ? GoalSpec.safeParse(stored.spec) : undefined;
    if (stored && spec?.success) {
      runtime.goal = this.newGoal(spec.data, stored.source, stored.id, stored.startedAt);
      if (runtime.goalsPaused) this.touch(runtime.goal, 'waiting', 'goals are paused');
    }
    if (!agent.revokedAt) {
      this.runtimes.set(agent.id, runtime);
      this.byCharacter.set(agent.characterId, agent.id);
    }
    return runtime;
  }

  private async persist(runtime: AgentRuntime): Promise<void> {
    const goal = runtime.goal && runtime.goal.endedAt === null
      ? { id: runtime.goal.id, spec: runtime.goal.spec, source: runtime.goal.source, startedAt: runtime.goal.startedAt } satisfies StoredGoal
      : null;
    await this.db.em.fork().nativeUpdate(Agent, { id: runtime.agentId }, { goalsPaused: runtime.goalsPaused, goal });
  }

  private persistQuietly(runtime: AgentRuntime): void {
    this.persist(runtime).catch((error: unknown) => this.logger.error({ err: error, agentId: runtime.agentId }, 'could not save the agent goal'));
  }

  private newGoal(spec: GoalSpec, source: Goal['source'], id: string = randomUUID(), startedAt: string = new Date().toISOString()): Goal {
    return {
      id, type: spec.type, spec, description: describeGoal(spec, this.data), source, status: 'active',
      progress: { current: 0, target: 1, unit: spec.type === 'travel' ? 'tiles' : 'steps', percent: 0 },
      detail: null, startedAt, updatedAt: new Date().toISOString(), endedAt: null,
    };
  }

  private startGoal(runtime: AgentRuntime, spec: GoalSpec, source: Goal['source']): void {
    if (runtime.goal && runtime.goal.endedAt === null) this.endGoal(runtime, 'stopped', 'replaced by a new goal');
    runtime.goal = this.newGoal(spec, source);
    runtime.plan = undefined;
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

  /** Stops the character where it stands: the path is cleared and observers hear of it on the next tick. */
  private cancelMovement(runtime: AgentRuntime): void {
    const world = worldOf(this.context);
    const player = world?.player(runtime.characterId);
    if (!world || !player) return;
    player.path = [];
    player.state.action = 'idle';
    world.markChanged(player);
  }

  private selectAutomatically(runtime: AgentRuntime, player: OnlinePlayer): void {
    const data = this.data;
    if (!data) return;
    let best: { spec: GoalSpec; distance: number } | undefined;
    for (const goal of this.menu()) {
      if (!goal.available || goal.spec.type !== 'travel') continue;
      const area = data.areasById.get(goal.spec.areaId);
      if (!area || area.pvp || insideRect(area.bounds, player.x, player.z)) continue;
      const distance = distanceToRect(player.x, player.z, area.bounds);
      if (!best || distance < best.distance) best = { spec: goal.spec, distance };
    }
    if (!best) return;
    this.startGoal(runtime, best.spec, 'auto');
    this.persistQuietly(runtime);
  }

  private stepTravel(world: AgentWorld, runtime: AgentRuntime, goal: Goal, player: OnlinePlayer): void {
    if (goal.spec.type !== 'travel') return;
    const area = world.data.areasById.get(goal.spec.areaId);
    if (!area) return this.finish(runtime, 'failed', `the area "${goal.spec.areaId}" no longer exists`);
    const distance = distanceToRect(player.x, player.z, area.bounds);
    if (!runtime.plan) {
      const destination = destinationIn(world.blocked, area.bounds);
      if (!destination) return this.finish(runtime, 'failed', 'the area has no walkable tile');
      runtime.plan = { destination, startDistance: Math.max(distance, 1), failures: 0 };
      if (distance === 0) return this.finish(runtime, 'completed', 'already there');
      // A fresh goal replaces whatever path the character was walking.
      this.replan(world, runtime, player);
      return;
    }
    const plan = runtime.plan;
    const walked = Math.max(0, plan.startDistance - distance);
    goal.progress = { current: walked, target: plan.startDistance, unit: 'tiles', percent: Math.min(100, Math.round((walked / plan.startDistance) * 100)) };
    if (goal.status !== 'active') this.touch(goal, 'active', null);
    if (distance === 0 && player.path.length === 0) return this.finish(runtime, 'completed', null);
    if (player.lock) return this.touch(goal, 'active', `waiting: the interface is held by a ${player.lock}`);
    if (player.path.length === 0) this.replan(world, runtime, player);
  }

  /**
   * Gathers until the character holds `quantity` more of the item than when the goal started: picks the nearest
   * node that yields it and is not depleted, and asks the room to gather it (player:action on the character's
   * connection — the gathering feature walks there, rolls each tick and stops on a full inventory or depletion).
   */
  private stepGather(world: AgentWorld, runtime: AgentRuntime, goal: Goal, player: OnlinePlayer): void {
    if (goal.spec.type !== 'gather') return;
    const { skill, itemId, quantity } = goal.spec;
    const held = countItem(player.containers.inventory, itemId);
    if (runtime.gather?.goalId !== goal.id) runtime.gather = { goalId: goal.id, baseline: held, failures: 0 };
    const gathered = Math.max(0, held - runtime.gather.baseline);
    goal.progress = { current: gathered, target: quantity, unit: 'items', percent: Math.min(100, Math.round((gathered / quantity) * 100)) };
    if (gathered >= quantity) return this.finish(runtime, 'completed', null);
    const stackable = world.data.itemsById.get(itemId)?.stackable ?? false;
    if (freeSlotCount(player.containers.inventory) === 0 && !(stackable && held > 0)) {
      return this.finish(runtime, 'failed', 'the inventory is full');
    }
    if (activityOf(player)?.kind === 'gather') return this.touch(goal, 'active', null);
    if (player.lock) return this.touch(goal, 'active', `waiting: the interface is held by a ${player.lock}`);
    const yielding = new Set(world.data.gathering[skill].filter((action) => action.outputs.some((o) => o.itemId === itemId)).map((a) => a.resourceId));
    let nearest: { id: string; distance: number } | undefined;
    world.grid.forEachNear(player.x, player.z, GATHER_SEARCH_RADIUS, (entity) => {
      if (entity.kind !== 'resource') return;
      const node = entity as unknown as { id: string; x: number; z: number; state: { resourceId: string; depleted: boolean } };
      if (!yielding.has(node.state.resourceId) || node.state.depleted) return;
      const distance = Math.max(Math.abs(node.x - player.x), Math.abs(node.z - player.z));
      if (!nearest || distance < nearest.distance) nearest = { id: node.id, distance };
    });
    if (!nearest) return this.touch(goal, 'waiting', `no ${itemId} to gather within ${GATHER_SEARCH_RADIUS} tiles right now (depleted nodes respawn)`);
    const gather = runtime.gather;
    runtime.busy = true;
    world.dispatch(player.client, 'player:action', { action: 'gather', targetId: nearest.id })
      .then(() => {
        if (activityOf(player)?.kind === 'gather') gather.failures = 0;
        else gather.failures += 1;
        if (gather.failures >= MAX_PLAN_FAILURES && runtime.gather === gather) this.finish(runtime, 'failed', `cannot gather ${itemId} (level, tool or reach)`);
      })
      .catch((error: unknown) => this.logger.error({ err: error, agentId: runtime.agentId }, 'agent gather failed'))
      .finally(() => { runtime.busy = false; });
  }

  /** Asks the room to walk toward the destination, through the player:move handler on the character's connection. */
  private replan(world: AgentWorld, runtime: AgentRuntime, player: OnlinePlayer): void {
    const plan = runtime.plan;
    if (!plan) return;
    const step = STEP_SIZES[Math.min(plan.failures, STEP_SIZES.length - 1)] ?? 6;
    const target = waypointToward(world.blocked, { x: player.x, z: player.z }, plan.destination, step);
    if (!target) {
      plan.failures += 1;
      return;
    }
    runtime.busy = true;
    const before = { x: player.x, z: player.z };
    world.dispatch(player.client, 'player:move', { x: target.x, z: target.z, run: true })
      .then(() => {
        const moving = player.path.length > 0 || (player.x === target.x && player.z === target.z);
        if (moving || player.x !== before.x || player.z !== before.z) plan.failures = 0;
        else plan.failures += 1;
        if (plan.failures >= MAX_PLAN_FAILURES && runtime.plan === plan) this.finish(runtime, 'failed', 'no path toward the area');
      })
      .catch((error: unknown) => this.logger.error({ err: error, agentId: runtime.agentId }, 'agent move failed'))
      .finally(() => { runtime.busy = false; });
  }

  private async say(runtime: AgentRuntime, message: string): Promise<boolean> {
    const world = worldOf(this.context);
    const player = world?.player(runtime.characterId);
    if (!world || !player) throw new HttpProblem(409, 'CHARACTER_OFFLINE', 'the character is not in the world, so it cannot chat');
    await world.dispatch(player.client, 'player:chat', { message });
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
    return { reply: `${runtime.goalsPaused ? 'goals are paused. ' : ''}commands: say <text>, /<command>, travel <area>, stop, resume` };
  }
}
