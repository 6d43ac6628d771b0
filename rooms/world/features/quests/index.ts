/**
 * NPC dialogue and quests (docs/quests.md): `npc:talk`, `dialogue:choose`, `dialogue:continue`, `dialogue:close`,
 * `quest:get`, and on the tick the dialogues that must close and the quest objectives met by held items. The quest
 * log is loaded on entering (`quest:state`) and written by every change at once (quest-book.ts), so leaving has
 * nothing left to save.
 */
import { z } from 'zod';
import type { WorldFeature } from '../../world-api.ts';
import { holdNpcs } from '../skills/wander.ts';
import { checkOpenDialogues, choose, closeDialogue, continueOn, forgetDialogue, npcsInDialogue, talkTo } from './dialogue-sessions.ts';
import { checkHeldObjectives, forgetQuestBook, loadQuestBook, questBookOf, questState } from './quest-book.ts';

export const TalkRequest = z.object({ npcId: z.string().min(1).max(80) }).strict();
/** An option by its index in the node's full option list, or by the id of the node it leads to. */
export const ChooseRequest = z.object({ option: z.union([z.number(), z.string().min(1).max(64)]) }).strict();
const Empty = z.object({}).strict();

export const quests: WorldFeature = {
  name: 'quests',
  install(world) {
    world.onPlayerJoin(async (player) => {
      const book = await loadQuestBook(world, player);
      player.client.send('quest:state', questState(world, book));
    });
    world.onPlayerLeave((player) => {
      forgetDialogue(world, player);
      forgetQuestBook(player);
    });
    world.onPlayerDied((player) => closeDialogue(world, player, 'DIED'));
    holdNpcs(world, () => npcsInDialogue(world));

    // One player's dialogue events and quest changes run in order (a double click cannot skip a step).
    world.handle('npc:talk', TalkRequest, (player, { npcId }) => questBookOf(player).serially(() => talkTo(world, player, npcId)));
    world.handle('dialogue:choose', ChooseRequest, (player, { option }) => questBookOf(player).serially(() => choose(world, player, option)));
    world.handle('dialogue:continue', Empty, (player) => questBookOf(player).serially(() => continueOn(world, player)));
    world.handle('dialogue:close', Empty, (player) => questBookOf(player).serially(async () => closeDialogue(world, player, 'CLOSED', true)));
    world.handle('quest:get', Empty, (player) => {
      player.client.send('quest:state', questState(world, questBookOf(player)));
    });

    world.onTick(() => {
      checkOpenDialogues(world);
      for (const player of world.players()) checkHeldObjectives(world, player);
    });
  },
};
