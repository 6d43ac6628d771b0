/**
 * The built-in commands of a message to an agent (POST /api/agents/:agentId/message without an AI-agent service):
 * the text parsed into a typed command. Pure: names of areas and NPCs are resolved against the game data given;
 * nothing is checked against the character (src/agents/messages.ts runs the command and asks the goal menu).
 *
 *   say <text>                      say it in chat
 *   /<command> …                    run a chat command as the character
 *   stop | pause, resume | continue goal control
 *   travel|go|goto|walk [to] <area> a travel goal (area id or name)
 *   train <skill> [[to] <level>]    a train_skill goal (default: one level up)
 *   kill [count] <npc>              a kill goal (npc id or name, plural allowed; default 1)
 *   bank [[the] inventory]          a bank_inventory goal
 */
import { GoalSpec } from './goals.ts';

/** The names the parser resolves (GameData satisfies it). */
export interface CommandNames {
  readonly areasById: ReadonlyMap<string, { readonly id: string; readonly name: string }>;
  readonly npcsById: ReadonlyMap<string, { readonly id: string; readonly name: string }>;
}

/** A goal a command asks for, not yet checked (the skill, level and count are validated by `checkGoal`). */
export type GoalDraft =
  | { type: 'bank_inventory' }
  | { type: 'train_skill'; skill: string; targetLevel: number | undefined }
  | { type: 'kill'; npcId: string; count: number };

export type AgentCommand =
  | { kind: 'say'; message: string }
  | { kind: 'chat-command'; line: string }
  | { kind: 'stop' }
  | { kind: 'resume' }
  | { kind: 'travel'; areaId: string; areaName: string }
  | { kind: 'goal'; draft: GoalDraft }
  /** Understood but refused: the reply says why. */
  | { kind: 'refused'; reply: string }
  /** Not a command: the reply lists them. */
  | { kind: 'help' };

const HELP = 'commands: say <text>, /<command>, travel <area>, train <skill> [level], kill <npc> [count], bank, stop, resume';

/** The reply to a message that is no command. */
export function helpReply(goalsPaused: boolean): string {
  return `${goalsPaused ? 'goals are paused. ' : ''}${HELP}`;
}

/** An id-like key for a name typed by a person: "Greystone Quarry" and "greystone-quarry" → "greystone_quarry". */
function key(name: string): string {
  return name.toLowerCase().replace(/[\s-]+/g, '_');
}

export function parseAgentCommand(text: string, names: CommandNames | null): AgentCommand {
  const trimmed = text.trim();
  const say = /^say\s+(.+)$/is.exec(trimmed);
  if (say?.[1]) return { kind: 'say', message: say[1] };
  if (trimmed.startsWith('/')) return { kind: 'chat-command', line: trimmed };
  if (/^(stop|pause)$/i.test(trimmed)) return { kind: 'stop' };
  if (/^(resume|continue)$/i.test(trimmed)) return { kind: 'resume' };
  const travel = /^(?:travel|go|goto|walk)(?:\s+to)?\s+(.+)$/i.exec(trimmed);
  if (travel?.[1]) {
    const wanted = key(travel[1].trim());
    const area = [...(names?.areasById.values() ?? [])].find((a) => a.id === wanted || key(a.name) === wanted);
    if (!area) return { kind: 'refused', reply: `no area called "${travel[1].trim()}"` };
    return { kind: 'travel', areaId: area.id, areaName: area.name };
  }
  const draft = goalDraft(trimmed, names);
  return draft ? { kind: 'goal', draft } : { kind: 'help' };
}

/** `train <skill> [level]`, `kill [count] <npc>`, `bank`: a goal, unchecked. */
function goalDraft(text: string, names: CommandNames | null): GoalDraft | undefined {
  if (/^bank(\s+(the\s+)?inventory)?$/i.test(text)) return { type: 'bank_inventory' };
  const train = /^train\s+([a-z]+)(?:\s+(?:to\s+)?(\d+))?$/i.exec(text);
  if (train?.[1]) return { type: 'train_skill', skill: train[1].toLowerCase(), targetLevel: train[2] ? Number(train[2]) : undefined };
  const kill = /^kill\s+(\d+\s+)?(.+)$/i.exec(text);
  if (kill?.[2]) {
    const wanted = key(kill[2].trim());
    const npcs = [...(names?.npcsById.values() ?? [])];
    // "kill 3 chickens": the plural names the type too.
    const npc = [wanted, wanted.replace(/s$/, '')].map((name) => npcs.find((n) => n.id === name || key(n.name) === name)).find(Boolean);
    return { type: 'kill', npcId: npc?.id ?? wanted, count: kill[1] ? Number(kill[1]) : 1 };
  }
  return undefined;
}

/** Whether the draft's target depends on the character's current level (`train <skill>` without a level). */
export function needsCurrentLevel(draft: GoalDraft): draft is Extract<GoalDraft, { type: 'train_skill' }> {
  return draft.type === 'train_skill' && draft.targetLevel === undefined;
}

/**
 * The goal a draft describes, validated as a goal body; `train <skill>` without a level aims one level above
 * `currentLevel` (level 2 when it is unknown). Whether the character can pursue it is the goal menu's question.
 */
export function checkGoal(draft: GoalDraft, currentLevel?: number): { ok: true; spec: GoalSpec } | { ok: false; reply: string } {
  const goal = needsCurrentLevel(draft) ? { ...draft, targetLevel: currentLevel === undefined ? 2 : currentLevel + 1 } : draft;
  const parsed = GoalSpec.safeParse(goal);
  if (!parsed.success) return { ok: false, reply: `not a goal: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  return { ok: true, spec: parsed.data };
}
