/**
 * Goal control per the spec's "Agent goal pause" table: each agent's goal, its pause and its recent goals in memory
 * (the runtime), stored with the agent so they survive a restart; setting a goal (checked against the goal menu),
 * stop (the path cancelled now, goals paused), resume, and the state the REST routes answer with. The goal runner
 * (goal-runner.ts) advances the goals tick by tick through the same runtimes.
 */
import { randomUUID } from 'node:crypto';
import type { GameContext } from '../context.ts';
import { saveAgentGoal } from '../db/agents.ts';
import type { Agent } from '../db/entities/index.ts';
import { session } from '../db/transaction.ts';
import type { GameData } from '../manifests/game-data.ts';
import { GameError } from '../game/refusal.ts';
import { characterFacts, type CharacterFacts } from './character-facts.ts';
import { stopActivityOf } from './executor/index.ts';
import { availableGoals, goalRefusal } from './goal-menu.ts';
import { describeGoal, GoalSpec, initialProgress, unknownReference, type AvailableGoal, type Goal, type SetGoalBody } from './goals.ts';
import { taskOf, type AgentRuntime } from './runtime.ts';
import { worldOfCharacter } from './world-link.ts';

/** Ticks an agent idles after its goal ended before it picks the next one itself. */
export const AUTO_SELECT_DELAY_TICKS = 3;
const RECENT_GOALS = 5;

/** An agent's goal state (GET /api/agents/:agentId/goal and the answer of every goal control). */
export interface GoalState {
  agentId: string;
  goal: Goal | null;
  goalsPaused: boolean;
  availableGoals: AvailableGoal[];
  characterOnline: boolean;
  recentGoals: Goal[];
}

/** The goal as stored with the agent (agents.goal). */
interface StoredGoal {
  id: string;
  spec: GoalSpec;
  source: Goal['source'];
  startedAt: string;
  /** What progress counts from (see GoalTask.baseline), once the goal ran. */
  baseline?: number;
}

/** Sets the goal's status and detail (updatedAt moves). */
export function touch(goal: Goal, status: Goal['status'], detail: string | null): void {
  goal.status = status;
  goal.detail = detail;
  goal.updatedAt = new Date().toISOString();
}

export class GoalControl {
  private readonly context: GameContext;
  private readonly runtimes = new Map<string, AgentRuntime>();
  private readonly byCharacter = new Map<string, string>();

  constructor(context: GameContext) {
    this.context = context;
  }

  private get data(): GameData | null { return this.context.data; }

  /** Every agent whose runtime is loaded (not revoked). */
  running(): IterableIterator<AgentRuntime> {
    return this.runtimes.values();
  }

  /** Whether the character's agent is loaded. */
  drives(characterId: string): boolean {
    return this.byCharacter.has(characterId);
  }

  runtimeOfCharacter(characterId: string): AgentRuntime | undefined {
    const agentId = this.byCharacter.get(characterId);
    return agentId ? this.runtimes.get(agentId) : undefined;
  }

  /** The agent's runtime, loaded from its record (stored goal and pause) on first use. */
  load(agent: Agent): AgentRuntime {
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
      if (runtime.goalsPaused) touch(runtime.goal, 'waiting', 'goals are paused');
    }
    if (!agent.revokedAt) {
      this.runtimes.set(agent.id, runtime);
      this.byCharacter.set(agent.characterId, agent.id);
    }
    return runtime;
  }

  /** Whether the agent's goals are paused (the runtime's switch once loaded, else the stored one). */
  goalsPaused(agent: Agent): boolean {
    return this.runtimes.get(agent.id)?.goalsPaused ?? agent.goalsPaused;
  }

  async state(agent: Agent): Promise<GoalState> {
    return this.stateOf(this.load(agent));
  }

  /** What the goal menu knows about the agent's character (live, else stored). */
  facts(agent: Agent): Promise<CharacterFacts | undefined> {
    return this.factsOf(this.load(agent));
  }

  /** The goals the character can be given now, with the reason for those it cannot. */
  menu(facts: CharacterFacts | undefined): AvailableGoal[] {
    return availableGoals(this.data, facts);
  }

  /**
   * Sets a goal: GOAL_NOT_FOUND for an unknown goalId, AREA_NOT_FOUND / ITEM_NOT_GATHERABLE / NPC_NOT_FOUND for an
   * unknown manifest id, and the goal menu's refusal (goal-menu.ts: SKILL_NOT_TRAINABLE, TARGET_LEVEL_REACHED,
   * NO_TOOL, LEVEL_TOO_LOW, …, with `goalType`) when the character cannot pursue it now.
   */
  async setGoal(agent: Agent, body: SetGoalBody, source: Goal['source'] = 'user'): Promise<GoalState> {
    const runtime = this.load(agent);
    const facts = await this.factsOf(runtime);
    const menu = this.menu(facts);
    let spec: GoalSpec;
    if ('goalId' in body) {
      const entry = menu.find((goal) => goal.id === body.goalId);
      if (!entry) throw new GameError('GOAL_NOT_FOUND', `no goal "${body.goalId}" among availableGoals`);
      spec = entry.spec;
    } else {
      spec = body;
    }
    const unknown = unknownReference(spec, this.data);
    if (unknown) throw new GameError(unknown.code, unknown.message);
    const refusal = goalRefusal(spec, this.data, facts);
    if (refusal) throw new GameError(refusal.code, refusal.message, { goalType: spec.type });
    this.startGoal(runtime, spec, source);
    await this.persist(runtime);
    return this.stateOf(runtime, facts);
  }

  /** goal/stop: path cancelled now, no automatic goals, the agent idles; chat keeps working. */
  async stop(agent: Agent): Promise<GoalState> {
    const runtime = this.load(agent);
    runtime.goalsPaused = true;
    this.endGoal(runtime, 'stopped', 'stopped by goal/stop');
    this.cancelMovement(runtime);
    await this.persist(runtime);
    return this.stateOf(runtime);
  }

  /** goal/resume: back to autonomous goal selection (a waiting goal runs again). */
  async resume(agent: Agent): Promise<GoalState> {
    const runtime = this.load(agent);
    runtime.goalsPaused = false;
    runtime.idleTicks = AUTO_SELECT_DELAY_TICKS;
    if (runtime.goal?.status === 'waiting') touch(runtime.goal, 'active', null);
    await this.persist(runtime);
    return this.stateOf(runtime);
  }

  /** Ends the current goal without pausing (the AI-agent service cleared it). */
  async clearGoal(agent: Agent, detail: string): Promise<void> {
    const runtime = this.load(agent);
    this.endGoal(runtime, 'stopped', detail);
    await this.persist(runtime);
  }

  /** The agent was revoked: its goal stops, the character stands still, and the agent is no longer driven. */
  forget(agent: Agent): void {
    const runtime = this.runtimes.get(agent.id);
    if (!runtime) return;
    this.endGoal(runtime, 'stopped', 'the agent was revoked');
    this.cancelMovement(runtime);
    this.runtimes.delete(agent.id);
    if (this.byCharacter.get(agent.characterId) === agent.id) this.byCharacter.delete(agent.characterId);
  }

  /** Starts a goal, replacing the current one; it waits while goals are paused or the character is not in the world. */
  startGoal(runtime: AgentRuntime, spec: GoalSpec, source: Goal['source']): void {
    if (runtime.goal && runtime.goal.endedAt === null) this.endGoal(runtime, 'stopped', 'replaced by a new goal');
    runtime.goal = this.newGoal(spec, source);
    runtime.plan = undefined;
    runtime.task = undefined;
    runtime.idleTicks = 0;
    if (runtime.goalsPaused) touch(runtime.goal, 'waiting', 'goals are paused; POST goal/resume to run it');
    else if (!this.context.online.has(runtime.characterId)) touch(runtime.goal, 'waiting', 'the character is not in the world');
  }

  /** Ends the goal the executor ran (completed or failed) and stores that. */
  finish(runtime: AgentRuntime, status: 'completed' | 'failed', detail: string | null): void {
    this.endGoal(runtime, status, detail);
    this.persistQuietly(runtime);
  }

  /** Stores the goal state, logging (not throwing) a failure: for the executor, which has no caller to answer. */
  persistQuietly(runtime: AgentRuntime): void {
    this.persist(runtime).catch((error: unknown) => this.context.logger.error({ err: error, agentId: runtime.agentId }, 'could not save the agent goal'));
  }

  private async factsOf(runtime: AgentRuntime): Promise<CharacterFacts | undefined> {
    return characterFacts(this.context.db, worldOfCharacter(this.context, runtime.characterId), runtime.characterId);
  }

  /** The state of a loaded runtime (facts: when the caller read them already). */
  async stateOf(runtime: AgentRuntime, facts?: CharacterFacts): Promise<GoalState> {
    return {
      agentId: runtime.agentId,
      goal: runtime.goal,
      goalsPaused: runtime.goalsPaused,
      availableGoals: this.menu(facts ?? await this.factsOf(runtime)),
      characterOnline: this.context.online.has(runtime.characterId),
      recentGoals: runtime.recentGoals,
    };
  }

  private async persist(runtime: AgentRuntime): Promise<void> {
    const current = runtime.goal;
    const baseline = current && runtime.task?.goalId === current.id ? runtime.task.baseline : undefined;
    const goal = current && current.endedAt === null
      ? { id: current.id, spec: current.spec, source: current.source, startedAt: current.startedAt, ...(baseline === undefined ? {} : { baseline }) } satisfies StoredGoal
      : null;
    await saveAgentGoal(session(this.context.db), runtime.agentId, runtime.goalsPaused, goal);
  }

  private newGoal(spec: GoalSpec, source: Goal['source'], id: string = randomUUID(), startedAt: string = new Date().toISOString()): Goal {
    return {
      id, type: spec.type, spec, description: describeGoal(spec, this.data), source, status: 'active',
      progress: initialProgress(spec),
      detail: null, startedAt, updatedAt: new Date().toISOString(), endedAt: null,
    };
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
    touch(goal, status, detail);
    goal.endedAt = goal.updatedAt;
    if (status === 'completed') goal.progress = { ...goal.progress, current: goal.progress.target, percent: 100 };
    runtime.recentGoals = [goal, ...runtime.recentGoals].slice(0, RECENT_GOALS);
    runtime.goal = null;
  }

  /**
   * Stops the character where it stands: the path is cleared (observers hear of it on the next tick) and its
   * activity (gathering, fighting) ends as if its client had sent player:action stop.
   */
  private cancelMovement(runtime: AgentRuntime): void {
    const world = worldOfCharacter(this.context, runtime.characterId);
    const player = world?.player(runtime.characterId);
    if (!world || !player) return;
    player.path = [];
    player.state.action = 'idle';
    world.markChanged(player);
    stopActivityOf(world, player);
  }
}
