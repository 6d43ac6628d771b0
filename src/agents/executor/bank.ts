/**
 * Bank trips: walk to the tile beside the nearest bank booth or banker, then deposit through the bank's own
 * handlers — `bank:depositAll` for bank_inventory, or `bank:deposit {slot, quantity: "all"}` per kind of item when
 * a training trip keeps its tools and bait. The bank's proximity rule and item transaction decide; the executor only
 * asks and looks at the inventory the room committed.
 */
import { bankableSlots } from '../goal-menu.ts';
import { bankAccessTiles, bankSites, type Tile } from '../planning.ts';
import { chebyshev } from '../../game/geometry.ts';
import { interfaceHeld, note, report, type Step } from './step.ts';
import { walkToward } from './walk.ts';

/** Deposits refused in a row (a full bank) before the goal fails. */
const MAX_DEPOSIT_FAILURES = 3;
const NOTHING_KEPT: ReadonlySet<string> = new Set();

/** The tile to walk to for the nearest bank, or undefined when the world has none reachable. */
export function nearestBankTile(step: Step): Tile | undefined {
  const { world, player } = step;
  return bankAccessTiles(world.blocked, bankSites(world.data), player)[0];
}

/** One step of a bank trip; true once nothing the trip deposits is left in the inventory. */
export function bankTrip(step: Step, keep: ReadonlySet<string> = NOTHING_KEPT): boolean {
  const { world, player, task } = step;
  const slots = bankableSlots(player.containers.inventory, keep);
  if (slots.length === 0) return true;
  if (interfaceHeld(step)) return false;
  if (!world.isNearBank(player)) {
    const tile = nearestBankTile(step);
    if (!tile) {
      step.finish('failed', 'there is no bank to walk to');
      return false;
    }
    note(step, 'walking to the bank');
    walkToward(step, tile, false, 'the bank');
    return false;
  }
  note(step, 'depositing at the bank');
  const before = slots.length;
  const deposited = () => {
    if (bankableSlots(player.containers.inventory, keep).length < before) task.failures = 0;
    else task.failures += 1;
    if (task.failures >= MAX_DEPOSIT_FAILURES) step.finish('failed', 'the bank refused the deposit (is it full?)');
  };
  if (keep.size === 0) step.send('bank:depositAll', {}, deposited);
  else step.send('bank:deposit', { slot: slots[0], quantity: 'all' }, deposited);
  return false;
}

/** bank_inventory: the trip above with deposit-all; progress is the walk to the bank. */
export function stepBankInventory(step: Step): void {
  const { player, task } = step;
  const tile = nearestBankTile(step);
  const distance = tile ? chebyshev(player, tile) : 0;
  if (task.startDistance === undefined) {
    if (bankableSlots(player.containers.inventory).length === 0) return step.finish('completed', 'nothing to bank');
    task.startDistance = Math.max(distance, 1);
  }
  report(step, Math.max(0, task.startDistance - distance), task.startDistance, 'tiles');
  if (bankTrip(step)) step.finish('completed', null);
}
