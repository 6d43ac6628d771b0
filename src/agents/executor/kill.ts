/**
 * kill: fight the nearest live NPC of the type (player:action attack — combat walks beside it and fights on the
 * tick) until the character's recorded kills of that type (npc_kills, written by combat with the drop) grew by
 * `count`; eats food it carries (inventory:use) when its health is at half or less. Death fails the goal (the
 * service hears of it from the world).
 */
import type { z } from 'zod';
import type { KillGoalSpec } from '../goals.ts';
import { chebyshev } from '../../game/geometry.ts';
import { interfaceHeld, note, report, type Step } from './step.ts';
import { walkToward } from './walk.ts';
import { foodSlot, isAlive, isDoing, nearestNpc, npcById } from './world-view.ts';

/** The attack is sent from within this distance; combat walks the rest. */
const ATTACK_FROM = 16;
/** Eats when health is at or below this share of the maximum. */
export const EAT_AT_OR_BELOW = 0.5;
const COUNT_EVERY_TICKS = 2;
/** Ticks to wait for a dead NPC's kill to show in the count (the drop and the count commit together). */
const SETTLE_TICKS = 8;
const MAX_FAILURES = 8;

export function stepKill(step: Step, spec: z.infer<typeof KillGoalSpec>): void {
  const { world, player, task, runtime } = step;
  const name = world.data.npcsById.get(spec.npcId)?.name ?? spec.npcId;
  if (task.baseline === undefined) {
    if (!task.counting) {
      task.counting = true;
      void step.countKills(spec.npcId).then((count) => {
        task.counting = false;
        if (count !== undefined && runtime.task === task) step.setBaseline(count);
      });
    }
    return note(step, 'reading the kill count');
  }
  const kills = task.kills ?? 0;
  report(step, kills, spec.count, 'kills');
  if (kills >= spec.count) return step.finish('completed', null);
  const tick = world.currentTick();
  if (!task.counting && tick >= (task.nextCountTick ?? 0)) {
    task.counting = true;
    task.nextCountTick = tick + COUNT_EVERY_TICKS;
    const baseline = task.baseline;
    void step.countKills(spec.npcId).then((count) => {
      task.counting = false;
      if (count !== undefined) task.kills = Math.max(task.kills ?? 0, count - baseline);
    });
  }
  if (task.target && !isDoing(world, player, 'attack')) {
    // The fight ended: if the NPC died, wait for its kill to be counted before fighting the next one.
    if (!isAlive(world, task.target)) task.settle = { untilTick: tick + SETTLE_TICKS, kills };
    task.target = undefined;
  }
  if (task.settle) {
    if (kills === task.settle.kills && tick < task.settle.untilTick) return note(step, 'counting the kill');
    task.settle = undefined;
  }
  if (interfaceHeld(step)) return;
  if (player.state.health <= player.state.maxHealth * EAT_AT_OR_BELOW) {
    const food = foodSlot(world, player);
    if (food) {
      note(step, `eating ${world.data.itemsById.get(food.itemId)?.name ?? food.itemId}`);
      return step.send('inventory:use', food);
    }
  }
  if (isDoing(world, player, 'attack')) {
    const fought = world.activityOf(player)?.targetId;
    const npc = fought ? npcById(world, player, fought) : undefined;
    if (npc?.state.npcId === spec.npcId) task.target = { id: npc.id, x: npc.x, z: npc.z };
    return note(step, `fighting a ${name}`);
  }
  const npc = nearestNpc(world, player, spec.npcId);
  if (!npc) return note(step, `no live ${name} right now (they respawn)`, 'waiting');
  if (!walkToward(step, { x: npc.x, z: npc.z }, chebyshev(player, npc) <= ATTACK_FROM, `a ${name}`)) return note(step, `walking to a ${name}`);
  step.send('player:action', { action: 'attack', targetId: npc.id }, () => {
    if (isDoing(world, player, 'attack')) {
      task.failures = 0;
      task.target = { id: npc.id, x: npc.x, z: npc.z };
    } else {
      task.failures += 1;
    }
    if (task.failures >= MAX_FAILURES) step.finish('failed', `cannot attack a ${name}`);
  });
}
