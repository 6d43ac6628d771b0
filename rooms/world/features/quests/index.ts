/**
 * NPC dialogue and quests (docs/quests.md): `npc:talk`, `dialogue:choose`, `dialogue:continue`, `dialogue:close`,
 * `quest:get`, and on the tick the dialogues that must close and the quest objectives met by held items. The quest
 * log is loaded on entering (`quest:state`) and written by every change at once (quest-book.ts), so leaving has
 * nothing left to save.
 */
import { z } from 'zod';
import { defineArea, on } from '../../area.ts';
import { holdNpcs } from '../npcs/wander.ts';
import { checkOpenDialogues, choose, closeDialogue, continueOn, forgetDialogue, npcsInDialogue, talkTo } from './dialogue-sessions.ts';
import { checkHeldObjectives, loadQuestBook, questBookOf, questBooks, questState } from './quest-book.ts';

export const TalkRequest = z.object({ npcId: z.string().min(1).max(80) }).strict();
/** An option by its index in the node's full option list, or by the id of the node it leads to. */
export const ChooseRequest = z.object({ option: z.union([z.number(), z.string().min(1).max(64)]) }).strict();
const Empty = z.object({}).strict();

export const quests = defineArea({
  name: 'quests',
  // One player's dialogue events and quest changes run in order (a double click cannot skip a step).
  messages: {
    'npc:talk': on(TalkRequest, ({ world, player }, { npcId }) => questBookOf(player).serially(() => talkTo(world, player, npcId))),
    'dialogue:choose': on(ChooseRequest, ({ world, player }, { option }) => questBookOf(player).serially(() => choose(world, player, option))),
    'dialogue:continue': on(Empty, ({ world, player }) => questBookOf(player).serially(() => continueOn(world, player))),
    'dialogue:close': on(Empty, ({ world, player }) => questBookOf(player).serially(async () => closeDialogue(world, player, 'CLOSED', true))),
    'quest:get': on(Empty, ({ world, player }) => {
      player.client.send('quest:state', questState(world, questBookOf(player)));
    }),
  },
  sends: ['quest:state', 'quest:update', 'quest:completed', 'dialogue:open', 'dialogue:node', 'dialogue:closed', 'bank:state', 'shop:state'],
  playerState: [questBooks],
  install(world) {
    world.onPlayerJoin(async (player) => {
      const book = await loadQuestBook(world, player);
      player.client.send('quest:state', questState(world, book));
    });
    world.onPlayerLeave((player) => forgetDialogue(world, player));
    world.onPlayerDied((player) => closeDialogue(world, player, 'DIED'));
    holdNpcs(world, () => npcsInDialogue(world));
    world.onTick(() => {
      checkOpenDialogues(world);
      for (const player of world.players()) checkHeldObjectives(world, player);
    });
  },
});
