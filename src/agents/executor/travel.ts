/** travel: walk to a walkable tile at the area's centre; done when standing in the area with no path left. */
import type { TravelGoalSpec } from '../goals.ts';
import { destinationIn } from '../planning.ts';
import { distanceToRect } from '../../game/geometry.ts';
import { report, type Step } from './step.ts';
import { walkToward } from './walk.ts';
import type { z } from 'zod';

export function stepTravel(step: Step, spec: z.infer<typeof TravelGoalSpec>): void {
  const { world, player, task } = step;
  const area = world.data.areasById.get(spec.areaId);
  if (!area) return step.finish('failed', `the area "${spec.areaId}" no longer exists`);
  const distance = distanceToRect(player.x, player.z, area.bounds);
  if (task.startDistance === undefined) {
    if (distance === 0) return step.finish('completed', 'already there');
    task.startDistance = distance;
  }
  const walked = Math.max(0, task.startDistance - distance);
  report(step, walked, task.startDistance, 'tiles');
  const destination = destinationIn(world.blocked, area.bounds);
  if (!destination) return step.finish('failed', 'the area has no walkable tile');
  if (!walkToward(step, destination, distance === 0 && player.path.length === 0, 'the area')) return;
  step.finish('completed', null);
}
