import assert from 'node:assert/strict';
import { emptyEquipment } from '../../src/game/equipment.ts';
import { bestTool, gatherChance, gatherTick, gatherableActions, isNodeAvailable, type GatheringContext } from '../../src/game/gathering.ts';
import { countItem, emptyInventory, type Inventory } from '../../src/game/inventory.ts';
import { TICK_MS } from '../../src/game/ticks.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { bundledData } from './support/bundled-data.ts';
import { filledWithLogs, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

const NOW = 1_000_000;
const always = () => 0;
const never = () => 0.999999;

describe('gathering', () => {
  let data: GameData;
  before(async () => {
    data = await bundledData();
  });

  function context(resourceId: string, level: number, inventory: Inventory, extra: Partial<GatheringContext> = {}): GatheringContext {
    const resource = data.resourcesById.get(resourceId)!;
    return {
      node: { resourceId, depletedUntil: null },
      resource,
      actions: data.gathering[resource.skill],
      level,
      inventory,
      equipment: emptyEquipment(),
      items: data.itemsById,
      tools: data.toolsByItemId,
      now: NOW,
      ...extra,
    };
  }

  it('picks the best tool the player can use, carried or wielded', () => {
    const inventory = inventoryOf([0, 'bronze_hatchet', 1], [1, 'steel_hatchet', 1]);
    assert.equal(bestTool('hatchet', 10, inventory, emptyEquipment(), data.toolsByItemId)?.itemId, 'bronze_hatchet');
    assert.equal(bestTool('hatchet', 30, inventory, emptyEquipment(), data.toolsByItemId)?.itemId, 'steel_hatchet');
    const wielded = { ...emptyEquipment(), weapon: { itemId: 'iron_hatchet', quantity: 1 } };
    assert.equal(bestTool('hatchet', 20, inventory, wielded, data.toolsByItemId)?.itemId, 'iron_hatchet');
    assert.equal(bestTool('pickaxe', 99, inventory, wielded, data.toolsByItemId), null);
  });

  it('succeeds more often with level and a better tool, capped at 95 %', () => {
    const chop = data.gathering.woodcutting.find((a) => a.id === 'chop_tree')!;
    const bronze = data.toolsByItemId.get('bronze_hatchet')!;
    const steel = data.toolsByItemId.get('steel_hatchet')!;
    assert.equal(gatherChance(chop, 1, bronze), 0.5);
    assert.equal(gatherChance(chop, 11, bronze), 0.6);
    assert.ok(gatherChance(chop, 30, steel) > gatherChance(chop, 30, bronze));
    assert.equal(gatherChance(chop, 99, steel), 0.95);
    const essence = data.gathering.mining.find((a) => a.id === 'mine_essence')!;
    assert.ok(gatherChance(essence, 99, data.toolsByItemId.get('steel_pickaxe')!) <= 0.95);
  });

  it('gives the output and XP on a successful tick, nothing on a failed one', () => {
    const ctx = context('oak_tree', 20, inventoryOf([0, 'bronze_hatchet', 1]));
    const success = expectOk(gatherTick(ctx, always));
    assert.equal(success.actionId, 'chop_oak');
    assert.equal(countItem(success.inventory, 'oak_logs'), 1);
    assert.equal(success.xpTenths, 375, '37.5 XP, in tenths');
    const failure = expectOk(gatherTick(ctx, never));
    assert.deepEqual([failure.actionId, failure.xpTenths, failure.inventory], [null, 0, ctx.inventory]);
  });

  it('depletes the node by its chance and respawns it after respawnTicks', () => {
    const ctx = context('tree', 1, inventoryOf([0, 'bronze_hatchet', 1]));
    const felled = expectOk(gatherTick(ctx, always));
    assert.equal(felled.depleted, true);
    assert.equal(felled.node.depletedUntil, NOW + 30 * TICK_MS);
    expectCode(gatherTick({ ...ctx, node: felled.node, now: NOW + 1000 }, always), 'NODE_DEPLETED');
    assert.ok(isNodeAvailable(felled.node, NOW + 30 * TICK_MS));
    const again = expectOk(gatherTick({ ...ctx, node: felled.node, now: NOW + 30 * TICK_MS }, never));
    assert.equal(again.node.depletedUntil, null);
    // Essence never depletes (depleteChance 0), even on the unluckiest roll.
    const vein = expectOk(gatherTick(context('essence_vein', 1, inventoryOf([0, 'bronze_pickaxe', 1])), always));
    assert.equal(vein.depleted, false);
  });

  it('refuses below the level, without a tool, without bait, or with a full inventory', () => {
    expectCode(gatherTick(context('willow_tree', 29, inventoryOf([0, 'steel_hatchet', 1])), always), 'LEVEL_TOO_LOW');
    expectCode(gatherTick(context('tree', 1, emptyInventory()), always), 'NO_TOOL');
    // An iron hatchet needs woodcutting 15 to use.
    expectCode(gatherTick(context('tree', 10, inventoryOf([0, 'iron_hatchet', 1])), always), 'NO_TOOL');
    expectCode(gatherTick(context('rod_fishing_spot', 20, inventoryOf([0, 'fishing_rod', 1])), always), 'MISSING_ITEMS');
    expectCode(gatherTick(context('tree', 1, filledWithLogs(27, inventoryOf([27, 'bronze_hatchet', 1]))), always), 'INVENTORY_FULL');
  });

  it('uses bait and tries the best fish first, falling back to the next', () => {
    const ctx = context('rod_fishing_spot', 30, inventoryOf([0, 'fishing_rod', 1], [1, 'fishing_bait', 2]));
    assert.deepEqual(expectOk(gatherableActions(ctx)).map((c) => c.action.id), ['bait_salmon', 'bait_trout']);
    const salmon = expectOk(gatherTick(ctx, always));
    assert.equal(salmon.actionId, 'bait_salmon');
    assert.equal(countItem(salmon.inventory, 'fishing_bait'), 1);
    // The salmon roll fails (0.5 ≥ 0.3), the trout roll succeeds (0.5 < 0.55), then the node holds (0.5 ≥ 0.01).
    const rolls = [0.5, 0.5, 0.5];
    const trout = expectOk(gatherTick(ctx, () => rolls.shift()!));
    assert.equal(trout.actionId, 'bait_trout');
    assert.equal(countItem(trout.inventory, 'raw_trout'), 1);
  });

  it('bait used up frees its slot for the catch', () => {
    const inventory = filledWithLogs(26, inventoryOf([26, 'fishing_rod', 1], [27, 'fishing_bait', 1]));
    const caught = expectOk(gatherTick(context('rod_fishing_spot', 15, inventory), always));
    assert.equal(caught.inventory[27]?.itemId, 'raw_trout');
  });
});
