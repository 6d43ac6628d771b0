/**
 * Quest progress (quests.json). A quest's stage is a number: 0 (absent from the log) means not started, the last
 * stage means completed, anything between is in progress. Starting moves to stage 1; each advance moves exactly
 * one stage on; reaching the last stage completes the quest once and returns its rewards as data for the room to
 * grant (items are a source: into the inventory, or the bank when it is full).
 *
 * Item objectives of a stage: `completeWhen.holding` moves the quest on as soon as the inventory holds the items
 * (`heldObjectivesMet`); `handIn` items are taken by the advance from that stage (`takeHandIn`).
 */
import type { Quest } from '../manifests/schemas/quests.ts';
import { takeItems, type Inventory } from './inventory.ts';
import type { ItemAmount } from './items.ts';
import { ok, refuse, type Result } from './result.ts';
import { describeUnmet, unmetRequirements, type Levels, type Skill } from './skills.ts';

/** questId → stage; quests not in the log have not been started. */
export type QuestLog = Readonly<Record<string, number>>;

export type QuestDefinitions = ReadonlyMap<string, Quest>;

export type QuestStatus = 'not-started' | 'in-progress' | 'completed';

export type QuestCode = 'ALREADY_STARTED' | 'ALREADY_COMPLETED' | 'REQUIREMENTS_NOT_MET' | 'NOT_STARTED' | 'WRONG_STAGE' | 'MISSING_ITEMS';

export interface QuestRewards {
  readonly questPoints: number;
  readonly items: readonly ItemAmount[];
  readonly xp: readonly { readonly skill: Skill; readonly amount: number }[];
}

export interface QuestAdvance {
  readonly log: QuestLog;
  readonly stage: number;
  readonly completed: boolean;
  /** Present exactly once: on the step that completes the quest. */
  readonly rewards: QuestRewards | null;
}

export function questStage(log: QuestLog, questId: string): number {
  return Object.hasOwn(log, questId) ? log[questId] : 0;
}

export function finalStage(quest: Quest): number {
  return quest.stages.length - 1;
}

export function questStatus(log: QuestLog, quest: Quest): QuestStatus {
  const stage = questStage(log, quest.id);
  if (stage >= finalStage(quest)) return 'completed';
  return stage === 0 ? 'not-started' : 'in-progress';
}

export function questPoints(log: QuestLog, quests: QuestDefinitions): number {
  let points = 0;
  for (const quest of quests.values()) if (questStatus(log, quest) === 'completed') points += quest.rewards.questPoints;
  return points;
}

/** Skill levels, completed quests and quest points the quest asks for. */
export function checkQuestRequirements(quest: Quest, levels: Levels, log: QuestLog, quests: QuestDefinitions): Result<true, QuestCode> {
  const missing: string[] = [];
  const unmet = unmetRequirements(quest.requirements.skills, levels);
  if (unmet.length > 0) missing.push(describeUnmet(unmet));
  for (const required of quest.requirements.quests) {
    const other = quests.get(required);
    if (!other || questStatus(log, other) !== 'completed') missing.push(`the quest ${other?.name ?? required}`);
  }
  const points = questPoints(log, quests);
  if (points < quest.requirements.questPoints) missing.push(`${quest.requirements.questPoints} quest points (you have ${points})`);
  if (missing.length > 0) return refuse('REQUIREMENTS_NOT_MET', `${quest.name} needs ${missing.join(', ')}`);
  return ok(true);
}

export function startQuest(log: QuestLog, quest: Quest, levels: Levels, quests: QuestDefinitions): Result<QuestAdvance, QuestCode> {
  const status = questStatus(log, quest);
  if (status === 'completed') return refuse('ALREADY_COMPLETED', `${quest.name} is already completed`);
  if (status === 'in-progress') return refuse('ALREADY_STARTED', `${quest.name} is already started`);
  const allowed = checkQuestRequirements(quest, levels, log, quests);
  if (!allowed.ok) return allowed;
  return moveTo(log, quest, 1);
}

/** Moves an started quest to `stage`, which must be the next one. */
export function advanceQuest(log: QuestLog, quest: Quest, stage: number): Result<QuestAdvance, QuestCode> {
  const current = questStage(log, quest.id);
  if (current >= finalStage(quest)) return refuse('ALREADY_COMPLETED', `${quest.name} is already completed`);
  if (current === 0) return refuse('NOT_STARTED', `${quest.name} has not been started`);
  if (stage !== current + 1) return refuse('WRONG_STAGE', `${quest.name} is at stage ${current}; it cannot move to stage ${String(stage)}`);
  return moveTo(log, quest, stage);
}

function moveTo(log: QuestLog, quest: Quest, stage: number): Result<QuestAdvance, QuestCode> {
  const completed = stage >= finalStage(quest);
  const rewards: QuestRewards | null = completed
    ? { questPoints: quest.rewards.questPoints, items: quest.rewards.items, xp: quest.rewards.xp }
    : null;
  return ok({ log: { ...log, [quest.id]: stage }, stage, completed, rewards });
}

/** The items the advance from `fromStage` takes (that stage's `handIn`); none for most stages. */
export function handInFor(quest: Quest, fromStage: number): readonly ItemAmount[] {
  return quest.stages[fromStage]?.handIn ?? [];
}

/** Whether the inventory holds every amount (amounts of one item listed twice add up). */
export function holdsAll(inventory: Inventory, wanted: readonly ItemAmount[]): boolean {
  const needed = new Map<string, number>();
  for (const { itemId, quantity } of wanted) needed.set(itemId, (needed.get(itemId) ?? 0) + quantity);
  const held = new Map<string, number>();
  for (const slot of inventory) if (slot && needed.has(slot.itemId)) held.set(slot.itemId, (held.get(slot.itemId) ?? 0) + slot.quantity);
  return [...needed].every(([itemId, quantity]) => (held.get(itemId) ?? 0) >= quantity);
}

/** Takes the hand-in of the advance from `fromStage` out of the inventory (all or nothing). */
export function takeHandIn(inventory: Inventory, quest: Quest, fromStage: number): Result<Inventory, QuestCode> {
  const wanted = handInFor(quest, fromStage);
  if (wanted.length === 0) return ok(inventory);
  const taken = takeItems(inventory, wanted.map((w) => ({ itemId: w.itemId, quantity: w.quantity })));
  if (!taken.ok) return refuse('MISSING_ITEMS', `${quest.name} needs ${describeAmounts(wanted)} in your inventory`);
  return ok(taken.value.inventory);
}

/** The started quests whose current stage is done by what the inventory holds, with the stage each moves to. */
export function heldObjectivesMet(log: QuestLog, quests: QuestDefinitions, inventory: Inventory): { quest: Quest; stage: number }[] {
  const met: { quest: Quest; stage: number }[] = [];
  for (const [questId, stage] of Object.entries(log)) {
    const quest = quests.get(questId);
    const holding = quest?.stages[stage]?.completeWhen?.holding;
    if (quest && stage > 0 && stage < finalStage(quest) && holding && holdsAll(inventory, holding)) met.push({ quest, stage: stage + 1 });
  }
  return met;
}

export interface QuestJournalEntry {
  readonly questId: string;
  readonly name: string;
  readonly difficulty: Quest['difficulty'];
  readonly status: QuestStatus;
  readonly stage: number;
  readonly finalStage: number;
  /** What to do next (the current stage's description). */
  readonly description: string;
}

/** Every quest with the player's status and stage, in manifest order. */
export function questJournal(log: QuestLog, quests: QuestDefinitions): QuestJournalEntry[] {
  return [...quests.values()].map((quest) => {
    const stage = Math.min(questStage(log, quest.id), finalStage(quest));
    return {
      questId: quest.id, name: quest.name, difficulty: quest.difficulty, status: questStatus(log, quest), stage,
      finalStage: finalStage(quest), description: quest.stages[stage].description,
    };
  });
}

function describeAmounts(amounts: readonly ItemAmount[]): string {
  return amounts.map((a) => `${a.quantity} × ${a.itemId}`).join(', ');
}
