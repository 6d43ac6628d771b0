/**
 * The game on the tick: skills and experience, gathering, processing, combat with NPCs and (in PvP areas) players,
 * prayer (prayer.ts), NPC wandering (wander.ts) (this folder), friends / private messages / ignore lists
 * (social.ts) and admin commands (admin-commands.ts). See docs/skills.md.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AttackStyle } from '../../../../src/game/combat.ts';
import type { WorldFeature } from '../../world-api.ts';
import { activityOf, stopActivity } from './activity.ts';
import { installAdminCommands } from './admin-commands.ts';
import { attackStep, combatOf, combatTick, startAttack } from './combat.ts';
import { installPrayer, prayStep, startPraying } from './prayer.ts';
import { SAVE_EVERY_TICKS, forgetSkills, loadSkills, saveSkills, skillsOf, skillsState } from './skill-book.ts';
import { installSocial } from './social.ts';
import { wanderTick } from './wander.ts';
import { startGathering, startProcessing, workOf, workStep } from './work.ts';

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

export const skills: WorldFeature = {
  name: 'skills',
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

    world.handle('player:action', ActionRequest, (player, request) => {
      if (request.action === 'stop') return stopActivity(world, player, 'STOPPED');
      player.assertFree('do that');
      if (combatOf(world).dying.has(player)) return;
      stopActivity(world, player);
      if (request.action === 'gather') startGathering(world, player, request.targetId);
      else if (request.action === 'process') startProcessing(world, player, request.recipeId, request.targetId, request.count);
      else if (request.action === 'pray') startPraying(world, player, request.targetId);
      else startAttack(world, player, request.targetId, request.style as AttackStyle | undefined);
    });
    world.handle('skills:get', z.object({}).strict(), (player) => {
      player.client.send('skills:state', skillsState(skillsOf(player)));
    });

    world.onTick((tick) => {
      workOf(world).tick();
      combatTick(world, tick);
      const combat = combatOf(world);
      wanderTick(world, (id) => combat.fighters().get(id)?.busy(tick) ?? false);
      for (const player of world.players()) {
        const activity = activityOf(player);
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

    installPrayer(world);
    installSocial(world);
    installAdminCommands(world);
  },
};
