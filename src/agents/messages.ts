/**
 * A message to an agent (POST /api/agents/:agentId/message): forwarded to the AI-agent service when one is
 * configured (remote.ts; its answer may set or clear the goal, pause or resume, and say a line), else run as a
 * built-in command (chat-commands.ts parses it). What the character says goes through the world's own chat handler,
 * as the agent (actor.ts).
 */
import type { GameContext } from '../context.ts';
import type { Agent } from '../db/entities/index.ts';
import { GameError } from '../game/refusal.ts';
import type { Skill } from '../game/skills.ts';
import { actAsAgent } from './actor.ts';
import { checkGoal, helpReply, needsCurrentLevel, parseAgentCommand } from './chat-commands.ts';
import type { GoalControl, GoalState } from './goal-control.ts';
import { describeGoal } from './goals.ts';
import type { AgentRegistry } from './registry.ts';
import { forwardToAgentService } from './remote.ts';
import type { AgentRuntime } from './runtime.ts';
import { worldOfCharacter } from './world-link.ts';

export interface MessageOutcome {
  /** `builtin` commands, or forwarded to the AI-agent service. */
  handledBy: 'builtin' | 'service';
  reply: string;
  /** The line the character said in chat, if any. */
  chat: { sent: boolean; message: string | null };
  state: GoalState;
}

interface Answer {
  reply: string;
  say?: string;
}

export class AgentMessages {
  private readonly context: GameContext;
  private readonly registry: AgentRegistry;
  private readonly goals: GoalControl;

  constructor(context: GameContext, registry: AgentRegistry, goals: GoalControl) {
    this.context = context;
    this.registry = registry;
    this.goals = goals;
  }

  /** Handles the message; CHARACTER_OFFLINE when it asks the character to chat while it is not in the world. */
  async message(agent: Agent, text: string): Promise<MessageOutcome> {
    const runtime = this.goals.load(agent);
    const { config } = this.context;
    const serviceUrl = config.agentApiUrl ?? config.agentUrl;
    const handledBy = serviceUrl ? 'service' : 'builtin';
    const { reply, say } = serviceUrl ? await this.forward(serviceUrl, agent, runtime, text) : await this.builtin(agent, runtime, text);
    let chatSent = false;
    if (say !== undefined) chatSent = await this.say(runtime, say);
    return { handledBy, reply, chat: { sent: chatSent, message: say ?? null }, state: await this.goals.stateOf(runtime) };
  }

  private async forward(serviceUrl: string, agent: Agent, runtime: AgentRuntime, text: string): Promise<Answer> {
    const answer = await forwardToAgentService(serviceUrl, this.context.config.agentServiceTimeoutMs, {
      agentId: agent.id, characterId: agent.characterId, characterName: await this.registry.characterName(agent.characterId),
      message: text, goal: runtime.goal, goalsPaused: runtime.goalsPaused, availableGoals: this.goals.menu(await this.goals.facts(agent)),
    });
    if (answer.goalsPaused === true && !runtime.goalsPaused) await this.goals.stop(agent);
    if (answer.goalsPaused === false && runtime.goalsPaused) await this.goals.resume(agent);
    if (answer.goal === null) await this.goals.clearGoal(agent, 'cleared by the AI-agent service');
    else if (answer.goal) await this.goals.setGoal(agent, answer.goal, 'service');
    return { reply: answer.reply ?? '', say: answer.say };
  }

  private async builtin(agent: Agent, runtime: AgentRuntime, text: string): Promise<Answer> {
    const data = this.context.data;
    const command = parseAgentCommand(text, data);
    switch (command.kind) {
      case 'say': return { reply: 'said in chat', say: command.message };
      case 'chat-command': return { reply: 'command sent', say: command.line };
      case 'stop':
        await this.goals.stop(agent);
        return { reply: 'stopped; goals paused' };
      case 'resume':
        await this.goals.resume(agent);
        return { reply: 'resumed autonomous goals' };
      case 'travel':
        await this.goals.setGoal(agent, { type: 'travel', areaId: command.areaId });
        return { reply: `travelling to ${command.areaName}` };
      case 'refused': return { reply: command.reply };
      case 'help': return { reply: helpReply(runtime.goalsPaused) };
      case 'goal': {
        const { draft } = command;
        const level = needsCurrentLevel(draft) ? (await this.goals.facts(agent))?.levels[draft.skill as Skill] : undefined;
        const checked = checkGoal(draft, level);
        if (!checked.ok) return { reply: checked.reply };
        try {
          await this.goals.setGoal(agent, checked.spec);
        } catch (error) {
          // The refusal is the reply: the message itself was fine.
          if (error instanceof GameError) return { reply: `cannot: ${error.message} (${error.code})` };
          throw error;
        }
        return { reply: describeGoal(checked.spec, data) };
      }
    }
  }

  private async say(runtime: AgentRuntime, message: string): Promise<boolean> {
    const world = worldOfCharacter(this.context, runtime.characterId);
    const player = world?.player(runtime.characterId);
    if (!world || !player) throw new GameError('CHARACTER_OFFLINE', 'the character is not in the world, so it cannot chat');
    // As the agent: the world refuses it admin commands and names it in audit lines (src/agents/actor.ts).
    await actAsAgent({ agentId: runtime.agentId, accountId: runtime.accountId, characterId: runtime.characterId },
      () => world.dispatch(player, 'player:chat', { message }));
    return true;
  }
}
