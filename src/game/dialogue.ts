/**
 * Walking a dialogue tree (dialogue.json). A step shows one node; a node either offers options (chosen by their
 * index in the node's option list, or by the id of the node they lead to) or continues to `next`. Reaching
 * `end` closes the dialogue. A node's action (open the bank or a store, start or advance a quest) is returned
 * when the node is entered, for the room to carry out.
 *
 * The manifests have no explicit option conditions, so options are gated by the action of the node they lead
 * to: an option into a `startQuest` node shows only while the quest can be started (not started, requirements
 * met); an option into an `advanceQuest` node shows only when the quest is at the stage just before and — when the
 * context carries the inventory — the player holds that stage's hand-in items.
 */
import { END, type Dialogue, type DialogueAction, type DialogueNode } from '../manifests/schemas/npcs.ts';
import type { Inventory } from './inventory.ts';
import { checkQuestRequirements, handInFor, holdsAll, questStage, questStatus, type QuestDefinitions, type QuestLog } from './quests.ts';
import { ok, refuse, type Result } from './result.ts';
import type { Levels } from './skills.ts';

export interface DialogueSession {
  readonly dialogueId: string;
  readonly nodeId: string;
}

/** What decides which options a player sees. */
export interface DialogueContext {
  readonly log: QuestLog;
  readonly quests: QuestDefinitions;
  readonly levels: Levels;
  /** When given, options into an advance that takes items show only while the inventory holds them. */
  readonly inventory?: Inventory;
}

export interface VisibleOption {
  /** Index in the node's full option list (stable whatever is hidden). */
  readonly index: number;
  readonly text: string;
}

export interface DialogueStep {
  /** Null once the dialogue has ended. */
  readonly session: DialogueSession | null;
  readonly node: DialogueNode | null;
  /** The options to show; empty for a node that continues with `next`. */
  readonly options: readonly VisibleOption[];
  /** The action of the node just entered, if any. */
  readonly action: DialogueAction | null;
}

export type DialogueCode = 'UNKNOWN_NODE' | 'NO_OPTIONS' | 'INVALID_OPTION' | 'OPTION_UNAVAILABLE' | 'NO_NEXT';

export function startDialogue(dialogue: Dialogue, ctx: DialogueContext): Result<DialogueStep, DialogueCode> {
  return enter(dialogue, dialogue.start, ctx);
}

/** Picks an option of the current node by index or by the id of the node it leads to. */
export function chooseOption(
  dialogue: Dialogue,
  session: DialogueSession,
  choice: number | string,
  ctx: DialogueContext,
): Result<DialogueStep, DialogueCode> {
  const node = nodeOf(dialogue, session.nodeId);
  if (!node) return refuse('UNKNOWN_NODE', `dialogue ${dialogue.id} has no node '${session.nodeId}'`);
  if (!node.options) return refuse('NO_OPTIONS', 'this line has no options; continue instead');
  const index = typeof choice === 'number' ? choice : node.options.findIndex((o, i) => o.next === choice && isOptionVisible(dialogue, node, i, ctx));
  if (!Number.isInteger(index) || index < 0 || index >= node.options.length) {
    return refuse('INVALID_OPTION', `there is no option ${String(choice)} here`);
  }
  if (!isOptionVisible(dialogue, node, index, ctx)) return refuse('OPTION_UNAVAILABLE', 'that option is not available');
  return enter(dialogue, node.options[index].next, ctx);
}

/** Moves on from a node without options. */
export function continueDialogue(dialogue: Dialogue, session: DialogueSession, ctx: DialogueContext): Result<DialogueStep, DialogueCode> {
  const node = nodeOf(dialogue, session.nodeId);
  if (!node) return refuse('UNKNOWN_NODE', `dialogue ${dialogue.id} has no node '${session.nodeId}'`);
  if (node.next === undefined) return refuse('NO_NEXT', 'choose one of the options');
  return enter(dialogue, node.next, ctx);
}

export function visibleOptions(dialogue: Dialogue, node: DialogueNode, ctx: DialogueContext): VisibleOption[] {
  return (node.options ?? []).flatMap((option, index) => (isOptionVisible(dialogue, node, index, ctx) ? [{ index, text: option.text }] : []));
}

function isOptionVisible(dialogue: Dialogue, node: DialogueNode, index: number, ctx: DialogueContext): boolean {
  const target = node.options?.[index]?.next;
  const action = target === undefined || target === END ? undefined : nodeOf(dialogue, target)?.action;
  if (action?.type === 'startQuest') {
    const quest = ctx.quests.get(action.questId);
    return quest !== undefined && questStatus(ctx.log, quest) === 'not-started' && checkQuestRequirements(quest, ctx.levels, ctx.log, ctx.quests).ok;
  }
  if (action?.type === 'advanceQuest') {
    if (questStage(ctx.log, action.questId) !== action.stage - 1 || action.stage <= 1) return false;
    const quest = ctx.quests.get(action.questId);
    return ctx.inventory === undefined || (quest !== undefined && holdsAll(ctx.inventory, handInFor(quest, action.stage - 1)));
  }
  return true;
}

function enter(dialogue: Dialogue, nodeId: string, ctx: DialogueContext): Result<DialogueStep, DialogueCode> {
  if (nodeId === END) return ok({ session: null, node: null, options: [], action: null });
  const node = nodeOf(dialogue, nodeId);
  if (!node) return refuse('UNKNOWN_NODE', `dialogue ${dialogue.id} has no node '${nodeId}'`);
  return ok({
    session: { dialogueId: dialogue.id, nodeId },
    node,
    options: visibleOptions(dialogue, node, ctx),
    action: node.action ?? null,
  });
}

function nodeOf(dialogue: Dialogue, nodeId: string): DialogueNode | undefined {
  return dialogue.nodes.find((n) => n.id === nodeId);
}
