/**
 * gather: until the character holds `quantity` more of the item than when the goal started, pick the nearest node
 * within 48 tiles that yields it and is not depleted, and ask the room to gather it (player:action gather — the
 * gathering feature walks there, rolls each tick and stops on a full inventory or depletion).
 */
import type { z } from 'zod';
import { countItem, freeSlotCount } from '../../game/inventory.ts';
import type { GatherGoalSpec } from '../goals.ts';
import { chebyshev } from '../../game/geometry.ts';
import { interfaceHeld, note, report, type Step } from './step.ts';
import { bestNode, isDoing, stopActivityOf } from './world-view.ts';

/** How far a gather goal looks for a node that yields its item (tiles, Chebyshev). */
const GATHER_SEARCH_RADIUS = 48;
const MAX_FAILURES = 8;

export function stepGather(step: Step, spec: z.infer<typeof GatherGoalSpec>): void {
  const { world, player, task } = step;
  const { skill, itemId, quantity } = spec;
  const held = countItem(player.containers.inventory, itemId);
  if (task.baseline === undefined) step.setBaseline(held);
  const gathered = Math.max(0, held - (task.baseline ?? held));
  report(step, gathered, quantity, 'items');
  if (gathered >= quantity) {
    stopActivityOf(world, player, 'gather');
    return step.finish('completed', null);
  }
  const stackable = world.data.itemsById.get(itemId)?.stackable ?? false;
  if (freeSlotCount(player.containers.inventory) === 0 && !(stackable && held > 0)) return step.finish('failed', 'the inventory is full');
  if (isDoing(world, player, 'gather')) return note(step, null);
  if (interfaceHeld(step)) return;
  const yielding = new Map(world.data.gathering[skill]
    .filter((action) => action.outputs.some((o) => o.itemId === itemId))
    .map((action) => [action.resourceId, 0]));
  const node = bestNode(world, player, yielding);
  if (!node || chebyshev(player, node) > GATHER_SEARCH_RADIUS) {
    return note(step, `no ${itemId} to gather within ${GATHER_SEARCH_RADIUS} tiles right now (depleted nodes respawn)`, 'waiting');
  }
  step.send('player:action', { action: 'gather', targetId: node.id }, () => {
    if (isDoing(world, player, 'gather')) task.failures = 0;
    else task.failures += 1;
    if (task.failures >= MAX_FAILURES) step.finish('failed', `cannot gather ${itemId} (level, tool or reach)`);
  });
}
