/**
 * The skills area: `player:action` (gather, process, attack, pray, stop) starts the player's one activity and the
 * tick runs its steps — gathering and processing (work.ts), fighting (combat.ts), praying at an altar (prayer.ts)
 * (activity.ts) —; experience and levels (rooms/world/skill-book.ts) are loaded on join, sent on `skills:get`, and saved in
 * batches, on the auto-save and on leaving. The combat area runs the NPCs, the prayer area the prayers, the
 * resources area the nodes and fires (this folder); NPC wandering, social and admin commands have their own
 * folders. See docs/skills.md.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AttackStyle } from '../../../../src/game/combat.ts';
import { defineArea, on } from '../../area.ts';
import { activities, stopActivity } from './activity.ts';
import { attackStep, dying, startAttack } from './combat.ts';
import { prayStep, startPraying } from './prayer.ts';
import { SAVE_EVERY_TICKS, forgetSkills, loadSkills, saveSkills, skillBooks, skillSaves, skillsState } from '../../skill-book.ts';
import { startGathering, startProcessing, workStep } from './work.ts';

const TargetId = z.string().min(1).max(80);

export const ActionRequest = z.discriminatedUnion('action', [
  z.object({ action: z.literal('gather'), targetId: TargetId }).strict(),
  z.object({
    action: z.literal('process'), recipeId: z.string().min(1).max(64), targetId: TargetId.optional(),
    count: z.number().int().min(1).max(10_000).optional(),
  }).strict(),
  z.object({ action: z.literal('attack'), targetId: TargetId, style: z.string().max(16).optional() }).strict(),
  z.object({ action: z.literal('pray'), targetId: TargetId.optional() }).strict(),
  z.object({ action: z.literal('stop') }).strict(),
]);

export const skills = defineArea({
  name: 'skills',
  messages: {
    'player:action': on(ActionRequest, ({ world, player }, request) => {
      if (request.action === 'stop') return stopActivity(world, player, 'STOPPED');
      player.assertFree('do that');
      if (dying.of(player)) return;
      stopActivity(world, player);
      if (request.action === 'gather') startGathering(world, player, request.targetId);
      else if (request.action === 'process') startProcessing(world, player, request.recipeId, request.targetId, request.count);
      else if (request.action === 'pray') startPraying(world, player, request.targetId);
      else startAttack(world, player, request.targetId, request.style as AttackStyle | undefined);
    }),
    'skills:get': on(z.object({}).strict(), ({ player }) => {
      player.client.send('skills:state', skillsState(skillBooks.of(player)));
    }),
  },
  sends: [
    'skills:state', 'skill:xp', 'skill:levelUp', 'player:sync', 'action:started', 'action:stopped',
    'gather:success', 'process:made', 'fire:lit', 'combat:hit', 'npc:died', 'prayer:state', 'prayer:recharged',
  ],
  playerState: [skillBooks, skillSaves, activities],
  install(world) {
    const saveAll = async () => {
      for (const player of [...world.players()]) await saveSkills(world, player);
    };
    world.onStart(async () => {
      world.context().autosave.register(`skills:${randomUUID()}`, saveAll);
    });
    world.onPlayerJoin(async (player) => {
      const book = await loadSkills(world, player);
      player.client.send('skills:state', skillsState(book));
    });
    world.onPlayerLeave(async (player) => {
      stopActivity(world, player);
      await saveSkills(world, player);
      forgetSkills(player);
    });
    world.onPlayerDied((player) => stopActivity(world, player, 'DIED'));

    // After the resources, combat and NPC ticks (areas.ts lists those areas first): each player's activity step,
    // then the batched save.
    world.onTick((tick) => {
      for (const player of world.players()) {
        const activity = activities.peek(player);
        if (!activity) continue;
        try {
          if (activity.kind === 'attack') attackStep(world, player, activity, tick);
          else if (activity.kind === 'pray') prayStep(world, player, activity, tick);
          else workStep(world, player, activity, tick);
        } catch (error) {
          stopActivity(world, player, 'INTERNAL_ERROR');
          world.context().logger.error({ err: error, characterId: player.id }, 'activity failed');
        }
      }
      if (tick % SAVE_EVERY_TICKS === 0) void saveAll();
    });
  },
});
