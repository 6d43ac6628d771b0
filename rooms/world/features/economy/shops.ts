/**
 * Shops (stores.json) near their shopkeeper: `shop:open`, `shop:buy`, `shop:sell`. Stock lives in memory per world
 * and restocks on the tick. A purchase or sale is one item transaction on the player's locked inventory; the stock
 * change is reserved synchronously while the transaction computes it (so two buyers can never both take the last
 * one) and given back if the transaction does not commit.
 */
import { z } from 'zod';
import type { Containers } from '../../../../src/db/item-transaction.ts';
import type { Inventory } from '../../../../src/game/inventory.ts';
import { adjustStock, buy, restock, sell, shopView, type StoreState } from '../../../../src/game/shop.ts';
import { TICK_MS } from '../../../../src/game/ticks.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { defineArea, on } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { ItemId, QuantityValue, REACH, SlotNumber, checkQuantity, moveOwnItems, npcWithinReach, unwrap } from './common.ts';
import { worldEconomy, type EconomyWorld } from './state.ts';

const StoreId = z.string().min(1).max(64);
export const OpenRequest = z.object({ storeId: StoreId }).strict();
export const BuyRequest = z.object({ storeId: StoreId, itemId: ItemId, quantity: QuantityValue }).strict();
export const SellRequest = z.object({ storeId: StoreId, slot: SlotNumber, quantity: QuantityValue }).strict();

/** The `shop:state` payload of a store. */
export function shopState(world: WorldApi, store: StoreState): Record<string, unknown> {
  return shopView(store, world.data.storesById.get(store.storeId)!.name, world.data.itemsById);
}

/** The store, checked to exist and to have its shopkeeper within reach of the player. */
export function storeNear(world: WorldApi, player: OnlinePlayer, storeId: string): StoreState {
  const definition = world.data.storesById.get(storeId);
  const store = worldEconomy.of(world).stores.get(storeId);
  if (!definition || !store) throw new GameError('UNKNOWN_STORE', `No store '${storeId.slice(0, 64)}'`);
  if (!npcWithinReach(world, player, (npcId) => npcId === definition.npcId)) {
    throw new GameError('NOT_NEAR_SHOP', `Stand within ${REACH} tiles of the shopkeeper`);
  }
  return store;
}

/** Adds `delta` to one stock entry of the current store state (reserving or giving back). */
function changeStock(economy: EconomyWorld, template: StoreState, itemId: string, delta: number): void {
  const current = economy.stores.get(template.storeId)!;
  economy.stores.set(current.storeId, adjustStock(current, template, itemId, delta));
}

interface Deal {
  store: StoreState;
  inventory: Inventory;
  /** The stock entry that changed and by how much (negative: bought from the store). */
  itemId: string;
  stockDelta: number;
  result: Record<string, unknown>;
}

/**
 * A purchase or sale: the interface is checked first (by moveOwnItems), then the request (`check`), then the
 * shopkeeper's reach.
 */
async function trade(
  world: WorldApi,
  player: OnlinePlayer,
  storeId: string,
  action: string,
  deal: (store: StoreState, containers: Containers) => Deal,
  check: () => void,
): Promise<void> {
  const economy = worldEconomy.of(world);
  let reserved: { template: StoreState; itemId: string; delta: number } | null = null;
  const giveBack = () => {
    if (reserved) changeStock(economy, reserved.template, reserved.itemId, -reserved.delta);
    reserved = null;
  };
  let result: Record<string, unknown>;
  try {
    result = await moveOwnItems(world, player, action, async (_tx, containers) => {
      giveBack(); // a retried transaction first returns what the previous attempt reserved
      const done = deal(economy.stores.get(storeId)!, containers);
      economy.stores.set(storeId, done.store);
      reserved = { template: done.store, itemId: done.itemId, delta: done.stockDelta };
      return { value: done.result, after: { ...containers, inventory: done.inventory } };
    }, {
      check: () => {
        check();
        storeNear(world, player, storeId);
      },
    });
  } catch (error) {
    giveBack();
    throw error;
  }
  player.client.send('shop:state', { ...shopState(world, economy.stores.get(storeId)!), last: result });
}

export const shops = defineArea({
  name: 'shops',
  messages: {
    'shop:open': on(OpenRequest, ({ world, player }, { storeId }) => {
      player.assertFree('open a shop');
      player.client.send('shop:state', shopState(world, storeNear(world, player, storeId)));
    }),

    'shop:buy': on(BuyRequest, ({ world, player }, { storeId, itemId, quantity }) => trade(world, player, storeId, 'buy', (store, containers) => {
      const done = unwrap(buy(store, containers.inventory, world.data.itemsById, itemId, quantity));
      return { store: done.store, inventory: done.inventory, itemId, stockDelta: -quantity, result: { action: 'bought', itemId, quantity, coins: done.cost } };
    }, () => checkQuantity(quantity))),

    'shop:sell': on(SellRequest, ({ world, player }, { storeId, slot, quantity }) => trade(world, player, storeId, 'sell', (store, containers) => {
      const done = unwrap(sell(store, containers.inventory, world.data.itemsById, slot, quantity));
      return {
        store: done.store, inventory: done.inventory, itemId: done.sold.itemId, stockDelta: done.sold.quantity,
        result: { action: 'sold', itemId: done.sold.itemId, quantity: done.sold.quantity, coins: done.payment },
      };
    }, () => checkQuantity(quantity))),
  },
  sends: ['shop:state', 'player:sync'],
  install(world) {
    const economy = worldEconomy.of(world);
    world.onTick(() => {
      for (const [id, store] of economy.stores) economy.stores.set(id, restock(store, TICK_MS));
    });
  },
});
