/**
 * The goal runner: once per tick, one executor step (src/agents/executor/) for every agent whose character is in
 * the world, and an automatic goal for an idle agent that is not paused. The executor acts on the character's own
 * connection (`world.dispatch(character, 'player:move' | 'player:action' | 'bank:depositAll' | …)`), so every rule a
 * player's own message obeys (validation, pathfinding, distance cap, blocked tiles, reach, the interface lock, the
 * connection's message limit) applies; it never writes positions or items itself. While the character is out of the
 * world its goal waits.
 */
import type { GameContext } from '../context.ts';
import { loadNpcKillCount } from '../db/agent-character.ts';
import { session } from '../db/transaction.ts';
import { liveFacts } from './character-facts.ts';
import { stepGoal, type Step } from './executor/index.ts';
import { AUTO_SELECT_DELAY_TICKS, touch, type GoalControl } from './goal-control.ts';
import { automaticGoal } from './goal-menu.ts';
import type { Goal } from './goals.ts';
import { taskOf, type AgentRuntime } from './runtime.ts';
import { worldOfCharacter, type AgentCharacter, type AgentWorld } from './world-link.ts';

export class GoalRunner {
  private readonly context: GameContext;
  private readonly goals: GoalControl;

  constructor(context: GameContext, goals: GoalControl) {
    this.context = context;
    this.goals = goals;
  }

  /**
   * One executor step for every agent whose character is in `world` (each world of the process calls this on its own
   * tick; a character is in one world at a time, so each agent steps once per tick, in its character's world).
   */
  tick(world: AgentWorld): void {
    for (const runtime of this.goals.running()) {
      const player = world.player(runtime.characterId);
      if (!player) {
        // Another world steps it if it is there; only a character in no world waits.
        if (runtime.goal?.status === 'active' && !worldOfCharacter(this.context, runtime.characterId)) {
          touch(runtime.goal, 'waiting', 'the character is not in the world');
        }
        continue;
      }
      if (runtime.busy) continue;
      if (runtime.goalsPaused) continue;
      const goal = runtime.goal;
      if (!goal || goal.endedAt !== null) {
        runtime.idleTicks += 1;
        if (runtime.idleTicks >= AUTO_SELECT_DELAY_TICKS) this.selectAutomatically(world, runtime, player);
        continue;
      }
      if (goal.status === 'waiting') touch(goal, 'active', null);
      try {
        stepGoal(this.stepOf(world, runtime, goal, player));
      } catch (error) {
        this.context.logger.error({ err: error, agentId: runtime.agentId, goalType: goal.type }, 'agent goal step failed');
        this.goals.finish(runtime, 'failed', 'the executor hit an internal error');
      }
    }
  }

  /** The character died: its goal fails (a fight is over, and what it carried lies at its gravestone). */
  characterDied(characterId: string): void {
    const runtime = this.goals.runtimeOfCharacter(characterId);
    if (runtime?.goal && runtime.goal.endedAt === null && !runtime.goalsPaused) this.goals.finish(runtime, 'failed', 'the character died');
  }

  private stepOf(world: AgentWorld, runtime: AgentRuntime, goal: Goal, player: AgentCharacter): Step {
    const { logger } = this.context;
    return {
      world, runtime, goal, player, task: taskOf(runtime, goal),
      finish: (status, detail) => {
        if (runtime.goal === goal) this.goals.finish(runtime, status, detail);
      },
      send: (type, data, then) => {
        runtime.busy = true;
        world.dispatch(player, type, data)
          .then(() => {
            if (runtime.goal === goal) then?.();
          })
          .catch((error: unknown) => logger.error({ err: error, agentId: runtime.agentId, event: type }, 'agent action failed'))
          .finally(() => { runtime.busy = false; });
      },
      setBaseline: (value) => {
        const task = taskOf(runtime, goal);
        task.baseline = value;
        if (runtime.goal === goal) this.goals.persistQuietly(runtime);
      },
      countKills: async (npcId) => {
        try {
          return await loadNpcKillCount(session(this.context.db), runtime.characterId, npcId);
        } catch (error) {
          logger.error({ err: error, agentId: runtime.agentId }, 'reading the kill count failed');
          return undefined;
        }
      },
    };
  }

  private selectAutomatically(world: AgentWorld, runtime: AgentRuntime, player: AgentCharacter): void {
    const data = this.context.data;
    const facts = liveFacts(world, player);
    if (!data || !facts) return;
    const spec = automaticGoal(data, this.goals.menu(facts), facts, player, runtime.recentGoals);
    if (!spec) return;
    this.goals.startGoal(runtime, spec, 'auto');
    this.goals.persistQuietly(runtime);
  }
}
