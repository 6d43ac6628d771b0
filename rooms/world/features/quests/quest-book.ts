/**
 * The quest logs of the players online and the one way a quest changes: `changeQuest`, a single item transaction
 * that re-reads the locked log from the database, applies the rule (start or advance), takes the stage's hand-in,
 * and — on completion — places the reward items (inventory, else bank), adds the reward experience and the quest
 * points, all in the same commit. Memory, `quest:update` / `quest:completed` and the skill book follow the commit.
 * Changes of one player run one after another (`serially`), so a dialogue step and an objective met on the tick
 * never race each other.
 */
import { addQuestPoints, addRewardXp, journalOf, loadQuestProgress, writeQuestStage, type QuestProgressRecord, type QuestTimes } from '../../../../src/db/quest-progress.ts';
import { session } from '../../../../src/db/transaction.ts';
import type { Bank } from '../../../../src/game/bank.ts';
import { placeRewardItems, type DeliveredReward } from '../../../../src/game/quest-rewards.ts';
import {
  advanceQuest, finalStage, heldObjectivesMet, questStage, questStatus, startQuest, takeHandIn,
  type QuestLog, type QuestStatus,
} from '../../../../src/game/quests.ts';
import { tenthsOf } from '../../../../src/game/experience.ts';
import type { Skill } from '../../../../src/game/skills.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { PlayerSlot } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { moveOwnItems, unwrap } from '../economy/common.ts';
import { grantXp, skillBooks } from '../../skill-book.ts';

export class QuestBook {
  log: QuestLog;
  times: Map<string, QuestTimes>;
  questPoints: number;
  /** Some started quest waits for items to be held (checked on the tick). */
  watching = false;
  /** An objective check is queued or running. */
  checking = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(progress: QuestProgressRecord) {
    this.log = progress.log;
    this.times = new Map(progress.times);
    this.questPoints = progress.questPoints;
  }

  /** Runs `work` after every earlier change of this player has finished. */
  serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** The player's quest log: loaded on entering the world, absent until then. */
export const questBooks = new PlayerSlot<QuestBook | undefined>('quest log', () => undefined);

/** The loaded quest log (NOT_IN_WORLD while it is still loading). */
export function questBookOf(player: OnlinePlayer): QuestBook {
  const book = questBooks.peek(player);
  if (!book) throw new GameError('NOT_IN_WORLD', 'Your quest log is not loaded yet');
  return book;
}

export async function loadQuestBook(world: WorldApi, player: OnlinePlayer): Promise<QuestBook> {
  const progress = await loadQuestProgress(session(world.context().db), player.id);
  if (!progress) throw new GameError('CHARACTER_NOT_FOUND', 'The character no longer exists');
  const book = new QuestBook(progress);
  questBooks.set(player, book);
  refreshWatching(world, book);
  return book;
}

function refreshWatching(world: WorldApi, book: QuestBook): void {
  book.watching = Object.entries(book.log).some(([questId, stage]) => {
    const quest = world.data.questsById.get(questId);
    return quest !== undefined && stage > 0 && stage < finalStage(quest) && quest.stages[stage]?.completeWhen !== undefined;
  });
}

/** The payload of `quest:state`: every quest with status, stage and times, and the quest points. */
export function questState(world: WorldApi, book: QuestBook): Record<string, unknown> {
  return {
    questPoints: book.questPoints,
    quests: journalOf({ log: book.log, times: book.times, questPoints: book.questPoints }, world.data.questsById),
  };
}

export type QuestChangeRequest = { type: 'start'; questId: string } | { type: 'advance'; questId: string; stage: number };

export interface QuestChange {
  questId: string;
  stage: number;
  status: QuestStatus;
  handedIn: readonly { itemId: string; quantity: number }[];
  /** Present on completion. */
  rewards: { questPoints: number; items: readonly DeliveredReward[]; xp: readonly { skill: Skill; amount: number }[] } | null;
  questPoints: number;
}

/** Starts or advances a quest for the player (see the file comment). Throws a GameError when refused. */
export async function changeQuest(world: WorldApi, player: OnlinePlayer, request: QuestChangeRequest): Promise<QuestChange> {
  const { data } = world;
  const quest = data.questsById.get(request.questId);
  if (!quest) throw new GameError('UNKNOWN_QUEST', `No quest '${request.questId.slice(0, 64)}'`);
  const book = questBookOf(player);
  const levels = skillBooks.of(player).snapshot();
  const now = new Date();
  const change = await moveOwnItems(world, player, 'do quests', async (tx, containers) => {
    const progress = await loadQuestProgress(tx, player.id);
    if (!progress) throw new GameError('CHARACTER_NOT_FOUND', 'The character no longer exists');
    const from = questStage(progress.log, quest.id);
    const moved = unwrap(request.type === 'start'
      ? startQuest(progress.log, quest, levels, data.questsById)
      : advanceQuest(progress.log, quest, request.stage));
    const inventory = unwrap(takeHandIn(containers.inventory, quest, from));
    let bank = containers.bank as Bank;
    let afterInventory = inventory;
    let rewards: QuestChange['rewards'] = null;
    let questPoints = progress.questPoints;
    await writeQuestStage(tx, player.id, quest.id, moved.stage, moved.completed, now);
    if (moved.rewards) {
      const placed = unwrap(placeRewardItems(inventory, bank, data.itemsById, moved.rewards.items));
      afterInventory = placed.inventory;
      bank = placed.bank;
      await addRewardXp(tx, player.id, moved.rewards.xp.map(({ skill, amount }) => ({ skill, tenths: tenthsOf(amount) })));
      questPoints = await addQuestPoints(tx, player.id, moved.rewards.questPoints);
      rewards = { questPoints: moved.rewards.questPoints, items: placed.delivered, xp: moved.rewards.xp };
    }
    const value: QuestChange = {
      questId: quest.id, stage: moved.stage, status: questStatus(moved.log, quest), handedIn: [...quest.stages[from]?.handIn ?? []],
      rewards, questPoints,
    };
    const changed = afterInventory !== containers.inventory || bank !== containers.bank;
    return { value, after: changed ? { ...containers, inventory: afterInventory, bank } : undefined };
  }, { bank: true });

  book.log = { ...book.log, [quest.id]: change.stage };
  const started = book.times.get(quest.id)?.startedAt ?? now.toISOString();
  book.times.set(quest.id, { startedAt: started, completedAt: change.rewards ? now.toISOString() : null });
  book.questPoints = change.questPoints;
  refreshWatching(world, book);
  player.client.send('quest:update', {
    questId: quest.id, name: quest.name, stage: change.stage, status: change.status, description: quest.stages[change.stage].description,
  });
  if (change.rewards) {
    // The experience is already stored; the skill book adds it in memory (its saves keep the greater value).
    for (const { skill, amount } of change.rewards.xp) grantXp(world, player, skill, tenthsOf(amount));
    player.client.send('quest:completed', { questId: quest.id, name: quest.name, rewards: change.rewards, questPoints: change.questPoints });
    world.context().logger.info({
      audit: 'quest_completed', characterId: player.id, questId: quest.id, handedIn: change.handedIn, rewards: change.rewards,
    }, `quest ${quest.id} completed`);
  }
  return change;
}

/**
 * Moves on every started quest whose current stage is done by what the player holds (`completeWhen.holding`),
 * re-checked inside the transaction. Runs in the player's queue; a refusal (the items left meanwhile) is ignored.
 */
export function checkHeldObjectives(world: WorldApi, player: OnlinePlayer): void {
  const book = questBooks.peek(player);
  if (!book || !book.watching || book.checking || player.lock) return;
  if (heldObjectivesMet(book.log, world.data.questsById, player.containers.inventory).length === 0) return;
  book.checking = true;
  void book.serially(async () => {
    for (const { quest, stage } of heldObjectivesMet(book.log, world.data.questsById, player.containers.inventory)) {
      await changeQuest(world, player, { type: 'advance', questId: quest.id, stage }).catch((error: unknown) => {
        if (!(error instanceof GameError)) world.context().logger.error({ err: error, characterId: player.id, questId: quest.id }, 'quest objective failed');
      });
    }
  }).finally(() => {
    book.checking = false;
  });
}
