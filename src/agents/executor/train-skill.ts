/**
 * train_skill (gathering skills): gather at the best node for the character's level and the tool it carries (the
 * gathering rules of src/game/gathering.ts decide, as they do for the room), walking there in legs when it is far;
 * when the inventory is full, a bank trip deposits everything but the tools and bait, then back to the nodes;
 * done when the skill reaches the target level.
 */
import type { z } from 'zod';
import { wholePoints } from '../../game/experience.ts';
import { xpForLevel } from '../../game/skills.ts';
import { bankableSlots, gatheringPlan, isGatheringSkill, keptForTraining } from '../goal-menu.ts';
import type { TrainSkillGoalSpec } from '../goals.ts';
import { nearestWalkable } from '../planning.ts';
import { chebyshev } from '../../game/geometry.ts';
import { bankTrip } from './bank.ts';
import { interfaceHeld, note, type Step } from './step.ts';
import { walkToward } from './walk.ts';
import { liveFacts } from '../character-facts.ts';
import { bestNode, isDoing, stopActivityOf } from './world-view.ts';

/** The gather request is sent from within this distance of the node; the gathering feature walks the rest. */
const APPROACH = 32;
const MAX_FAILURES = 8;

export function stepTrainSkill(step: Step, spec: z.infer<typeof TrainSkillGoalSpec>): void {
  const { world, player, task, goal } = step;
  const skill = spec.skill;
  if (!isGatheringSkill(skill)) return step.finish('failed', `the executor cannot train ${skill}`);
  const book = world.skillsOf(player);
  const facts = liveFacts(world, player);
  if (!book || !facts) return note(step, 'waiting for the character to finish entering the world', 'waiting');
  const level = book.levels[skill];
  // Whole points, as the players see them (the book counts tenths).
  const xp = wholePoints(book.xp[skill]);
  if (task.baseline === undefined) step.setBaseline(xp);
  const from = Math.min(task.baseline ?? xp, xp);
  const targetXp = xpForLevel(spec.targetLevel);
  const percent = targetXp > from ? Math.round(((xp - from) / (targetXp - from)) * 100) : 100;
  goal.progress = { current: xp, target: targetXp, unit: 'xp', percent: Math.max(0, Math.min(100, percent)), level, targetLevel: spec.targetLevel };
  if (level >= spec.targetLevel) {
    stopActivityOf(world, player, 'gather');
    return step.finish('completed', null);
  }
  const kept = keptForTraining(world.data, skill);
  if (task.banking) {
    if (!bankTrip(step, kept)) return;
    task.banking = false;
    task.failures = 0;
  }
  if (isDoing(world, player, 'gather')) return note(step, `training ${skill}`);
  if (interfaceHeld(step)) return;
  const plan = gatheringPlan(world.data, skill, facts);
  if (plan.ready.length === 0) {
    if (plan.full.length === 0) return step.finish('failed', plan.refusal?.message ?? `nothing to train ${skill} on`);
    if (bankableSlots(facts.inventory, kept).length === 0) return step.finish('failed', 'the inventory is full of the tools and bait training keeps');
    task.banking = true;
    task.failures = 0;
    return note(step, 'the inventory is full: going to the bank');
  }
  const node = bestNode(world, player, new Map(plan.ready.map((option) => [option.resourceId, option.level])));
  if (!node) return note(step, `every ${skill} node the character can use is depleted; waiting for one to come back`, 'waiting');
  const name = world.data.resourcesById.get(node.state.resourceId)?.name ?? node.state.resourceId;
  const stand = nearestWalkable(world.blocked, { x: node.x, z: node.z }, 3) ?? { x: node.x, z: node.z };
  if (!walkToward(step, stand, chebyshev(player, node) <= APPROACH, `the ${name.toLowerCase()}`)) return note(step, `walking to the ${name.toLowerCase()}`);
  note(step, `training ${skill} at the ${name.toLowerCase()}`);
  step.send('player:action', { action: 'gather', targetId: node.id }, () => {
    if (isDoing(world, player, 'gather')) task.failures = 0;
    else task.failures += 1;
    if (task.failures >= MAX_FAILURES) step.finish('failed', `cannot gather at the ${name.toLowerCase()} (reach)`);
  });
}
