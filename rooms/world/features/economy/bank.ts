/**
 * The bank, near a bank booth or a banker: `bank:open`, deposits (a slot, everything, worn equipment), withdrawals
 * (by item id or tab + index), tabs (create, rename, delete, move an item). Every change is one item transaction
 * that reads and writes the bank rows with the inventory and equipment; the committed bank is sent as `bank:state`.
 * The rules are src/game/bank.ts; a deposit or withdrawal also sends the committed containers (`player:sync`).
 */
import { z } from 'zod';
import { loadBanks, type Containers } from '../../../../src/db/item-transaction.ts';
import { session } from '../../../../src/db/transaction.ts';
import {
  MAIN_TAB, bankState, checkInTab, createTab, deleteTab, deposit, depositEquipment, depositInventory, moveToTab, renameTab, withdraw,
  type Bank, type BankRef,
} from '../../../../src/game/bank.ts';
import type { EquipmentSlot } from '../../../../src/game/equipment.ts';
import { defineArea, on } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { AmountValue, ItemId, SlotNumber, assertNearBank, checkAmount, moveOwnItems, unwrap } from './common.ts';

const TabNumber = z.number();
const TabName = z.string().max(200);

export const DepositRequest = z.object({ slot: SlotNumber, quantity: AmountValue, tab: TabNumber.optional() }).strict();
export const DepositEquipmentRequest = z.object({ slot: z.string().max(32).optional() }).strict();
export const WithdrawRequest = z.union([
  z.object({ itemId: ItemId, quantity: AmountValue, tab: TabNumber.optional() }).strict(),
  z.object({ tab: TabNumber, index: z.number(), quantity: AmountValue }).strict(),
]);
export const TabCreateRequest = z.object({ name: TabName }).strict();
export const TabRenameRequest = z.object({ tab: TabNumber, name: TabName }).strict();
export const TabDeleteRequest = z.object({ tab: TabNumber }).strict();
export const TabMoveRequest = z.union([
  z.object({ itemId: ItemId, toTab: TabNumber, toIndex: z.number().optional() }).strict(),
  z.object({ tab: TabNumber, index: z.number(), toTab: TabNumber, toIndex: z.number().optional() }).strict(),
]);

const Empty = z.object({}).strict();

/**
 * One bank change near a bank: `change` gets the locked containers with the bank and returns the new ones. The
 * interface is checked first (by moveOwnItems), then the request (`check`), then the reach of a bank.
 */
async function bankChange(
  world: WorldApi,
  player: OnlinePlayer,
  change: (containers: Containers & { bank: Bank }) => Containers & { bank: Bank },
  check?: () => void,
): Promise<void> {
  const bank = await moveOwnItems(world, player, 'use the bank', async (_tx, containers) => {
    const after = change(containers as Containers & { bank: Bank });
    return { value: after.bank, after };
  }, {
    bank: true,
    check: () => {
      check?.();
      assertNearBank(world, player);
    },
  });
  player.client.send('bank:state', bankState(bank));
}

function refOf(request: { itemId: string } | { tab: number; index: number }): BankRef {
  return 'itemId' in request ? { itemId: request.itemId } : { tab: request.tab, index: request.index };
}

export const bank = defineArea({
  name: 'bank',
  messages: {
    'bank:open': on(Empty, async ({ world, player }) => {
      player.assertFree('open the bank');
      assertNearBank(world, player);
      const banks = await loadBanks(session(world.context().db), [player.id]);
      player.client.send('bank:state', bankState(banks.get(player.id)!));
    }),

    'bank:deposit': on(DepositRequest, ({ world, player }, { slot, quantity, tab }) => bankChange(world, player, (c) => {
      const done = unwrap(deposit(c.bank, c.inventory, world.data.itemsById, slot, quantity, tab ?? MAIN_TAB));
      return { ...c, bank: done.bank, inventory: done.inventory };
    }, () => checkAmount(quantity))),

    'bank:depositAll': on(Empty, ({ world, player }) => bankChange(world, player, (c) => {
      const done = unwrap(depositInventory(c.bank, c.inventory));
      return { ...c, bank: done.bank, inventory: done.inventory };
    })),

    'bank:depositEquipment': on(DepositEquipmentRequest, ({ world, player }, { slot }) => bankChange(world, player, (c) => {
      const done = unwrap(depositEquipment(c.bank, c.equipment, (slot ?? 'all') as EquipmentSlot | 'all'));
      return { ...c, bank: done.bank, equipment: done.equipment };
    })),

    'bank:withdraw': on(WithdrawRequest, ({ world, player }, request) => bankChange(world, player, (c) => {
      if ('itemId' in request && request.tab !== undefined) unwrap(checkInTab(c.bank, request.itemId, request.tab));
      const done = unwrap(withdraw(c.bank, c.inventory, world.data.itemsById, refOf(request), request.quantity));
      return { ...c, bank: done.bank, inventory: done.inventory };
    }, () => checkAmount(request.quantity))),

    'bank:tab:create': on(TabCreateRequest, ({ world, player }, { name }) =>
      bankChange(world, player, (c) => ({ ...c, bank: unwrap(createTab(c.bank, name)) }))),
    'bank:tab:rename': on(TabRenameRequest, ({ world, player }, { tab, name }) =>
      bankChange(world, player, (c) => ({ ...c, bank: unwrap(renameTab(c.bank, tab, name)) }))),
    'bank:tab:delete': on(TabDeleteRequest, ({ world, player }, { tab }) =>
      bankChange(world, player, (c) => ({ ...c, bank: unwrap(deleteTab(c.bank, tab)) }))),
    'bank:tab:move': on(TabMoveRequest, ({ world, player }, request) =>
      bankChange(world, player, (c) => ({ ...c, bank: unwrap(moveToTab(c.bank, refOf(request), request.toTab, request.toIndex)) }))),
  },
  sends: ['bank:state', 'player:sync'],
});
