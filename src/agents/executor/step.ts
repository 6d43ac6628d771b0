/**
 * One executor step of one agent: the goal, its task state, the character in the world, and the only ways a step
 * acts — `send` (a message on the character's own connection, through the room's handlers) and `finish`.
 */
import type { Goal, GoalProgress } from '../goals.ts';
import type { AgentRuntime, GoalTask } from '../runtime.ts';
import type { AgentCharacter, AgentWorld } from '../world-link.ts';

export interface Step {
  readonly world: AgentWorld;
  readonly runtime: AgentRuntime;
  readonly goal: Goal;
  readonly task: GoalTask;
  readonly player: AgentCharacter;
  /** Ends the goal (filed under recentGoals). */
  finish(status: 'completed' | 'failed', detail: string | null): void;
  /**
   * Sends a message on the character's connection as its client would (validation, rate limit, handler, `error`
   * event on refusal). The executor waits until it was handled; `then` runs afterwards if the goal is still current.
   */
  send(type: string, data: unknown, then?: () => void): void;
  /** Sets the task's baseline and stores it with the goal, so progress survives a restart. */
  setBaseline(value: number): void;
  /** The character's recorded kills of an NPC type (the npc_kills row combat writes with the drop); undefined when the read failed (logged). */
  countKills(npcId: string): Promise<number | undefined>;
}

/** Marks the goal as running with a detail (what it is doing or waiting for); updatedAt moves only on a change. */
export function note(step: Step, detail: string | null, status: 'active' | 'waiting' = 'active'): void {
  const { goal } = step;
  if (goal.endedAt !== null || (goal.status === status && goal.detail === detail)) return;
  goal.status = status;
  goal.detail = detail;
  goal.updatedAt = new Date().toISOString();
}

export function report(step: Step, current: number, target: number, unit: string, extra: Partial<GoalProgress> = {}): void {
  const span = Math.max(target, 1);
  const percent = Math.max(0, Math.min(100, Math.round((current / span) * 100)));
  step.goal.progress = { current, target, unit, percent, ...extra };
}

/** True (with a note) while a trade or another activity holds the character's interface. */
export function interfaceHeld(step: Step): boolean {
  if (!step.player.lock) return false;
  note(step, `waiting: the interface is held by a ${step.player.lock}`);
  return true;
}
