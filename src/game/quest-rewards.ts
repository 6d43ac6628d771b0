/**
 * Where a completed quest's reward items go: into the inventory as far as they fit, the rest into the bank. A
 * reward that fits neither is refused as a whole (nothing granted), so the player can make room and try again.
 */
import { addToBank, type Bank, type BankCode } from './bank.ts';
import { addAsMuchAsFits, type Inventory, type InventoryCode } from './inventory.ts';
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { ok, refuse, type Result } from './result.ts';

export interface DeliveredReward {
  readonly itemId: string;
  readonly quantity: number;
  readonly to: 'inventory' | 'bank';
}

export interface RewardPlacement {
  readonly inventory: Inventory;
  readonly bank: Bank;
  readonly delivered: readonly DeliveredReward[];
}

export type RewardCode = InventoryCode | BankCode | 'NO_ROOM_FOR_REWARDS';

export function placeRewardItems(
  inventory: Inventory,
  bank: Bank,
  items: ItemDefinitions,
  rewards: readonly ItemAmount[],
): Result<RewardPlacement, RewardCode> {
  if (rewards.length === 0) return ok({ inventory, bank, delivered: [] });
  const carried = addAsMuchAsFits(inventory, items, rewards);
  if (!carried.ok) return carried;
  const delivered: DeliveredReward[] = carried.value.added.map((a) => ({ ...a, to: 'inventory' as const }));
  if (carried.value.leftover.length === 0) return ok({ inventory: carried.value.inventory, bank, delivered });
  const banked = addToBank(bank, carried.value.leftover);
  if (!banked.ok) {
    return refuse('NO_ROOM_FOR_REWARDS', `the rewards fit neither your inventory nor your bank (${banked.message}); make room first`);
  }
  delivered.push(...carried.value.leftover.map((a) => ({ ...a, to: 'bank' as const })));
  return ok({ inventory: carried.value.inventory, bank: banked.value, delivered });
}
