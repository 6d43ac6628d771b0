/** One executor step for the goal at hand, by goal type. */
import { stepBankInventory } from './bank.ts';
import { stepGather } from './gather.ts';
import { stepKill } from './kill.ts';
import type { Step } from './step.ts';
import { stepTrainSkill } from './train-skill.ts';
import { stepTravel } from './travel.ts';

export type { Step } from './step.ts';
export { stopActivityOf } from './world-view.ts';

export function stepGoal(step: Step): void {
  const spec = step.goal.spec;
  switch (spec.type) {
    case 'travel': return stepTravel(step, spec);
    case 'gather': return stepGather(step, spec);
    case 'train_skill': return stepTrainSkill(step, spec);
    case 'kill': return stepKill(step, spec);
    case 'bank_inventory': return stepBankInventory(step);
  }
}
