/**
 * The economy invariant as a property: over random sequences of inventory, bank, equipment, shop, drop, pick-up,
 * death and gravestone operations, per-item totals across every container change only by the explicit sources
 * and sinks (coins paid to or by a shop, restocking, eating, burying, ground items expiring). Refusals change
 * nothing (all states are frozen, so a mutating rule would throw).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addToBank, bankTotals, createTab, deleteTab, deposit, depositEquipment, depositInventory, emptyBank, moveToTab, withdraw, type Bank } from '../../src/game/bank.ts';
import { claimGravestone, die, expireGravestone, type Gravestone } from '../../src/game/death.ts';
import { EQUIPMENT_SLOTS, emptyEquipment, equip, unequip, wornItems, type Equipment } from '../../src/game/equipment.ts';
import { eat } from '../../src/game/food.ts';
import { dropFromInventory, partitionExpired, pickUp, type GroundItem } from '../../src/game/ground-items.ts';
import { moveSlot, type Inventory } from '../../src/game/inventory.ts';
import { buryBones } from '../../src/game/prayer.ts';
import { buy, createStoreState, restock, sell, type StoreState } from '../../src/game/shop.ts';
import { startingLevels } from '../../src/game/skills.ts';
import { totalsDifference, totalsOf } from '../../src/game/totals.ts';
import { Store } from '../../src/manifests/schemas/stores.ts';
import { ITEMS, frozen, inventoryOf } from './support/fixtures.ts';

interface World {
  readonly inventory: Inventory;
  readonly equipment: Equipment;
  readonly bank: Bank;
  readonly store: StoreState;
  readonly ground: readonly GroundItem[];
  readonly gravestones: readonly Gravestone[];
  readonly now: number;
}

type Op =
  | { op: 'deposit'; slot: number; amount: number | 'all'; tab: number }
  | { op: 'depositInventory' }
  | { op: 'depositEquipment'; slot: number }
  | { op: 'withdraw'; pick: number; amount: number | 'all' }
  | { op: 'tab'; action: 'create' | 'delete' | 'move'; n: number }
  | { op: 'equip'; slot: number }
  | { op: 'unequip'; slot: number }
  | { op: 'move'; from: number; to: number }
  | { op: 'buy'; pick: number; quantity: number }
  | { op: 'sell'; slot: number; quantity: number }
  | { op: 'drop'; slot: number }
  | { op: 'pickUp'; pick: number; asOther: boolean }
  | { op: 'wait'; ms: number }
  | { op: 'eat'; slot: number }
  | { op: 'bury'; slot: number }
  | { op: 'die'; keep: number }
  | { op: 'claim'; pick: number };

const slot = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 11 }), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: 27 }), weight: 1 });
const amount = fc.oneof(fc.constant<'all'>('all'), fc.integer({ min: 1, max: 60 }), fc.constantFrom(0, -1, 1.5, Number.NaN));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('deposit' as const), slot, amount, tab: fc.integer({ min: 0, max: 3 }) }), weight: 5 },
  { arbitrary: fc.constant({ op: 'depositInventory' as const }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('depositEquipment' as const), slot: fc.integer({ min: -1, max: EQUIPMENT_SLOTS.length - 1 }) }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('withdraw' as const), pick: fc.nat(), amount }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('tab' as const), action: fc.constantFrom('create' as const, 'delete' as const, 'move' as const), n: fc.nat() }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('equip' as const), slot }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('unequip' as const), slot: fc.integer({ min: 0, max: EQUIPMENT_SLOTS.length - 1 }) }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('move' as const), from: slot, to: slot }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('buy' as const), pick: fc.nat(), quantity: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constant(0)) }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('sell' as const), slot, quantity: fc.integer({ min: 1, max: 40 }) }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('drop' as const), slot }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('pickUp' as const), pick: fc.nat(), asOther: fc.boolean() }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 200_000 }) }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('eat' as const), slot }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('bury' as const), slot }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('die' as const), keep: fc.integer({ min: 0, max: 4 }) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('claim' as const), pick: fc.nat() }), weight: 5 },
);

const STORE = createStoreState(
  Store.parse({
    id: 'general',
    name: 'General',
    npcId: 'keeper',
    areaId: 'town',
    kind: 'general',
    sellMultiplier: 1,
    buyMultiplier: 0.4,
    stock: [
      { itemId: 'shrimp', quantity: 5, restockTicks: 10 },
      { itemId: 'arrows', quantity: 100, restockTicks: 10 },
      { itemId: 'gem', quantity: 2, restockTicks: 50 },
      { itemId: 'helm', quantity: 1, restockTicks: 50 },
    ],
  }),
);

function initialWorld(): World {
  const bank = addToBank(emptyBank(), [{ itemId: 'gem', quantity: 3 }, { itemId: 'coins', quantity: 1000 }, { itemId: 'iron_sword', quantity: 1 }]);
  assert.ok(bank.ok);
  return frozen({
    inventory: inventoryOf(
      [0, 'coins', 5000], [1, 'logs', 1], [2, 'logs', 1], [3, 'shrimp', 1], [4, 'sword', 1], [5, 'arrows', 50],
      [6, 'bow', 1], [7, 'shield', 1], [8, 'bones', 1], [9, 'locket', 1], [10, 'feather', 20], [11, 'greatsword', 1],
    ),
    equipment: { ...emptyEquipment(), head: { itemId: 'helm', quantity: 1 } },
    bank: bank.value,
    store: STORE,
    ground: [],
    gravestones: [],
    now: 1_000_000,
  });
}

function everything(world: World): Map<string, number> {
  const storeStock = world.store.stock.map((s) => ({ itemId: s.itemId, quantity: s.quantity }));
  const bank = [...bankTotals(world.bank)].map(([itemId, quantity]) => ({ itemId, quantity }));
  return totalsOf(world.inventory, wornItems(world.equipment), bank, storeStock, world.ground, world.gravestones.flatMap((g) => g.items));
}

/** Applies one operation; returns the new world and the explicit source (+) / sink (−) amounts. */
function step(world: World, op: Op): { world: World; delta: Map<string, number> } {
  const delta = new Map<string, number>();
  const change = (itemId: string, n: number) => delta.set(itemId, (delta.get(itemId) ?? 0) + n);
  const levels = { ...startingLevels(), attack: 10, ranged: 10 };
  let next: World = world;
  let id = 0;
  const nextId = () => `id-${world.now}-${id++}`;
  switch (op.op) {
    case 'deposit': {
      const r = deposit(world.bank, world.inventory, ITEMS, op.slot, op.amount, op.tab);
      if (r.ok) next = { ...world, bank: r.value.bank, inventory: r.value.inventory };
      break;
    }
    case 'depositInventory': {
      const r = depositInventory(world.bank, world.inventory);
      if (r.ok) next = { ...world, bank: r.value.bank, inventory: r.value.inventory };
      break;
    }
    case 'depositEquipment': {
      const r = depositEquipment(world.bank, world.equipment, op.slot < 0 ? 'all' : EQUIPMENT_SLOTS[op.slot]);
      if (r.ok) next = { ...world, bank: r.value.bank, equipment: r.value.equipment };
      break;
    }
    case 'withdraw': {
      const entries = world.bank.tabs.flatMap((t) => t.items);
      if (entries.length === 0) break;
      const r = withdraw(world.bank, world.inventory, ITEMS, { itemId: entries[op.pick % entries.length].itemId }, op.amount);
      if (r.ok) next = { ...world, bank: r.value.bank, inventory: r.value.inventory };
      break;
    }
    case 'tab': {
      const r =
        op.action === 'create'
          ? createTab(world.bank, `tab ${op.n % 12}`)
          : op.action === 'delete'
            ? deleteTab(world.bank, op.n % (world.bank.tabs.length + 1))
            : moveToTab(world.bank, { itemId: ['gem', 'coins', 'logs', 'iron_sword'][op.n % 4] }, op.n % world.bank.tabs.length);
      if (r.ok) next = { ...world, bank: r.value };
      break;
    }
    case 'equip': {
      const r = equip({ inventory: world.inventory, equipment: world.equipment }, ITEMS, op.slot, levels);
      if (r.ok) next = { ...world, ...r.value };
      break;
    }
    case 'unequip': {
      const r = unequip({ inventory: world.inventory, equipment: world.equipment }, ITEMS, EQUIPMENT_SLOTS[op.slot]);
      if (r.ok) next = { ...world, ...r.value };
      break;
    }
    case 'move': {
      const r = moveSlot(world.inventory, op.from, op.to);
      if (r.ok) next = { ...world, inventory: r.value };
      break;
    }
    case 'buy': {
      const itemId = world.store.stock[op.pick % world.store.stock.length].itemId;
      const r = buy(world.store, world.inventory, ITEMS, itemId, op.quantity);
      if (r.ok) {
        next = { ...world, store: r.value.store, inventory: r.value.inventory };
        change('coins', -r.value.cost);
      }
      break;
    }
    case 'sell': {
      const r = sell(world.store, world.inventory, ITEMS, op.slot, op.quantity);
      if (r.ok) {
        next = { ...world, store: r.value.store, inventory: r.value.inventory };
        change('coins', r.value.payment);
      }
      break;
    }
    case 'drop': {
      const r = dropFromInventory(world.inventory, ITEMS, op.slot, { id: nextId(), x: 1, z: 1, ownerId: 'me', now: world.now });
      if (r.ok) next = { ...world, inventory: r.value.inventory, ground: [...world.ground, r.value.groundItem] };
      break;
    }
    case 'pickUp': {
      if (world.ground.length === 0) break;
      const index = op.pick % world.ground.length;
      // Someone else picking up takes the item out of this world's containers: count it as a sink.
      const r = pickUp(op.asOther ? world.inventory.map(() => null) : world.inventory, ITEMS, world.ground[index], op.asOther ? 'other' : 'me', world.now);
      if (r.ok) {
        const ground = world.ground.filter((_, i) => i !== index);
        if (op.asOther) {
          next = { ...world, ground };
          change(world.ground[index].itemId, -world.ground[index].quantity);
        } else next = { ...world, ground, inventory: r.value };
      }
      break;
    }
    case 'wait': {
      const now = world.now + op.ms;
      const { remaining, expired } = partitionExpired(world.ground, now);
      for (const g of expired) change(g.itemId, -g.quantity);
      const store = restock(world.store, op.ms);
      const before = totalsOf(world.store.stock);
      for (const [itemId, n] of totalsOf(store.stock)) change(itemId, n - (before.get(itemId) ?? 0));
      for (const [itemId, n] of before) if (!store.stock.some((s) => s.itemId === itemId)) change(itemId, -n);
      const gravestones: Gravestone[] = [];
      let ground = remaining;
      for (const g of world.gravestones) {
        const piles = expireGravestone(g, ITEMS, now, nextId);
        if (piles.ok) ground = [...ground, ...piles.value];
        else gravestones.push(g);
      }
      next = { ...world, now, ground, store, gravestones };
      break;
    }
    case 'eat': {
      const r = eat(world.inventory, ITEMS, op.slot, 5, 10);
      if (r.ok) {
        next = { ...world, inventory: r.value.inventory };
        change(r.value.itemId, -1);
      }
      break;
    }
    case 'bury': {
      const r = buryBones(world.inventory, ITEMS, op.slot);
      if (r.ok) {
        next = { ...world, inventory: r.value.inventory };
        change(r.value.itemId, -1);
      }
      break;
    }
    case 'die': {
      const death = die({ inventory: world.inventory, equipment: world.equipment }, ITEMS, {
        gravestoneId: nextId(), ownerId: 'me', x: 2, z: 2, now: world.now, keep: op.keep, gravestoneMs: 300_000,
      });
      next = { ...world, ...death.loadout, gravestones: death.gravestone ? [...world.gravestones, death.gravestone] : world.gravestones };
      break;
    }
    case 'claim': {
      if (world.gravestones.length === 0) break;
      const index = op.pick % world.gravestones.length;
      const r = claimGravestone(world.inventory, ITEMS, world.gravestones[index], 'me', world.now);
      if (r.ok) {
        const gravestones = world.gravestones.flatMap((g, i) => (i !== index ? [g] : r.value.gravestone ? [r.value.gravestone] : []));
        next = { ...world, inventory: r.value.inventory, gravestones };
      }
      break;
    }
  }
  return { world: frozen(next), delta };
}

describe('economy invariant (property)', () => {
  it('item totals change only by explicit sources and sinks, over random operation sequences', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 80, size: 'large' }), (ops) => {
        let world = initialWorld();
        const expected = everything(world);
        for (const op of ops) {
          const before = everything(world);
          const { world: after, delta } = step(world, op);
          for (const [itemId, n] of delta) expected.set(itemId, (expected.get(itemId) ?? 0) + n);
          for (const [itemId, n] of [...expected]) if (n === 0) expected.delete(itemId);
          const differences = totalsDifference(expected, everything(after));
          assert.deepEqual(differences, [], `after ${JSON.stringify(op)} (totals before: ${JSON.stringify([...before])})`);
          if (after === world) assert.deepEqual(everything(after), before);
          world = after;
        }
      }),
      { numRuns: 300 },
    );
  });
});
