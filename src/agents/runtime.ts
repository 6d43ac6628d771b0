/** What the executor keeps in memory per agent: the pause, the goal, and the state of the goal's current work. */
import type { Goal } from './goals.ts';
import type { Tile } from './planning.ts';

/** A walk in legs toward a tile (player:move on the character's connection, ≤ 48 tiles per leg). */
export interface WalkPlan {
  destination: Tile;
  startDistance: number;
  /** Legs refused in a row (each retry uses a shorter leg). */
  failures: number;
}

/** The work of one goal instance (reset when the goal changes). */
export interface GoalTask {
  goalId: string;
  /**
   * What progress counts from, taken when the goal first runs and stored with the goal: the item count (gather),
   * the recorded kill count (kill) or the experience (train_skill).
   */
  baseline: number | undefined;
  /** Refused or fruitless attempts in a row (start gathering, attack, deposit). */
  failures: number;
  /** Distance when the walk began (travel and bank_inventory progress). */
  startDistance?: number;
  /** train_skill: on a trip to empty the inventory at the bank. */
  banking?: boolean;
  /** kill: kills counted so far, and when the count is read next. */
  kills?: number;
  nextCountTick?: number;
  counting?: boolean;
  /** kill: the NPC being fought and where it was last seen. */
  target?: { id: string; x: number; z: number };
  /** kill: after the fought NPC died, no new fight until its kill is counted (or this tick passed: not ours). */
  settle?: { untilTick: number; kills: number };
}

export interface AgentRuntime {
  agentId: string;
  accountId: string;
  characterId: string;
  goalsPaused: boolean;
  goal: Goal | null;
  recentGoals: Goal[];
  idleTicks: number;
  plan: WalkPlan | undefined;
  task: GoalTask | undefined;
  /** A message sent on the character's connection is being handled; the executor waits for it. */
  busy: boolean;
}

/** The task of the runtime's current goal, created on first use. */
export function taskOf(runtime: AgentRuntime, goal: Goal): GoalTask {
  if (runtime.task?.goalId !== goal.id) runtime.task = { goalId: goal.id, baseline: undefined, failures: 0 };
  return runtime.task;
}
