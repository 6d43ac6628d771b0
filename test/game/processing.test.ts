import assert from 'node:assert/strict';
import { countItem, emptyInventory, inventoryTotals, type Inventory } from '../../src/game/inventory.ts';
import { MAX_STACK } from '../../src/game/quantity.ts';
import {
  BASE_BURN_CHANCE,
  burnChance,
  burnOut,
  lightFire,
  maxBatches,
  processRecipe,
  stationAccepts,
  type FireContext,
  type ProcessContext,
} from '../../src/game/processing.ts';
import type { GameData, RecipeSkill } from '../../src/manifests/game-data.ts';
import type { Recipe } from '../../src/manifests/schemas/skilling.ts';
import { bundledData } from './support/bundled-data.ts';
import { filledWithLogs, frozen, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

describe('processing', () => {
  let data: GameData;
  let recipe: (skill: RecipeSkill, id: string) => Recipe;
  before(async () => {
    data = await bundledData();
    recipe = (skill, id) => data.recipes[skill].find((r) => r.id === id)!;
  });

  const ctx = (skill: RecipeSkill, level: number, inventory: Inventory, at: ProcessContext['at']): ProcessContext => ({
    skill,
    level,
    inventory: frozen(inventory),
    items: data.itemsById,
    at,
  });

  describe('cooking', () => {
    it('burns less as the level rises, never at the stop-burn level', () => {
      const shrimp = recipe('cooking', 'cook_shrimp');
      assert.equal(burnChance(shrimp, 1), BASE_BURN_CHANCE);
      assert.ok(burnChance(shrimp, 10) < burnChance(shrimp, 5));
      assert.equal(burnChance(shrimp, 20), 0);
      assert.equal(burnChance(shrimp, 99), 0);
      assert.equal(burnChance(recipe('smithing', 'smelt_bronze_bar'), 1), 0);
    });

    it('cooks on a range or a fire, and burns on an unlucky roll (no XP)', () => {
      const shrimp = recipe('cooking', 'cook_shrimp');
      const cooked = expectOk(processRecipe(shrimp, ctx('cooking', 5, inventoryOf([0, 'raw_shrimp', 1]), 'range'), () => 0.99));
      assert.deepEqual([cooked.result, cooked.xpTenths], ['success', 300]);
      assert.deepEqual(inventoryTotals(cooked.inventory), new Map([['shrimp', 1]]));
      const burnt = expectOk(processRecipe(shrimp, ctx('cooking', 5, inventoryOf([0, 'raw_shrimp', 1]), 'fire'), () => 0));
      assert.deepEqual([burnt.result, burnt.xpTenths], ['failure', 0]);
      assert.deepEqual(inventoryTotals(burnt.inventory), new Map([['burnt_shrimp', 1]]));
      expectCode(processRecipe(shrimp, ctx('cooking', 5, inventoryOf([0, 'raw_shrimp', 1]), 'furnace'), () => 0), 'WRONG_STATION');
      expectCode(processRecipe(shrimp, ctx('cooking', 5, inventoryOf([0, 'raw_shrimp', 1]), null), () => 0), 'WRONG_STATION');
    });

    it('refuses below the level and without the raw food', () => {
      expectCode(processRecipe(recipe('cooking', 'cook_salmon'), ctx('cooking', 24, inventoryOf([0, 'raw_salmon', 1]), 'range'), () => 0), 'LEVEL_TOO_LOW');
      expectCode(processRecipe(recipe('cooking', 'cook_trout'), ctx('cooking', 20, emptyInventory(), 'range'), () => 0), 'MISSING_ITEMS');
    });
  });

  describe('smithing', () => {
    it('smelts at a furnace: inputs in, bar out', () => {
      const steel = recipe('smithing', 'smelt_steel_bar');
      const inventory = inventoryOf([0, 'iron_ore', 1], [1, 'coal', 1], [2, 'coal', 1], [3, 'coal', 1]);
      const done = expectOk(processRecipe(steel, ctx('smithing', 30, inventory, 'furnace'), () => 0));
      assert.deepEqual(inventoryTotals(done.inventory), new Map([['coal', 1], ['steel_bar', 1]]));
      assert.equal(done.xpTenths, 175, '17.5 XP, in tenths');
      expectCode(processRecipe(steel, ctx('smithing', 30, inventory, 'anvil'), () => 0), 'WRONG_STATION');
      expectCode(processRecipe(steel, ctx('smithing', 30, inventoryOf([0, 'iron_ore', 1], [1, 'coal', 1]), 'furnace'), () => 0), 'MISSING_ITEMS');
    });

    it('smiths at an anvil with a hammer, which is kept', () => {
      const helm = recipe('smithing', 'smith_bronze_full_helm');
      const inventory = inventoryOf([0, 'hammer', 1], [1, 'bronze_bar', 1], [2, 'bronze_bar', 1]);
      const done = expectOk(processRecipe(helm, ctx('smithing', 7, inventory, 'anvil'), () => 0));
      assert.deepEqual(inventoryTotals(done.inventory), new Map([['hammer', 1], ['bronze_full_helm', 1]]));
      expectCode(processRecipe(helm, ctx('smithing', 7, inventoryOf([1, 'bronze_bar', 1], [2, 'bronze_bar', 1]), 'anvil'), () => 0), 'MISSING_TOOL');
    });
  });

  describe('fletching and runecrafting', () => {
    it('fletches without a station, stacking the output', () => {
      const shafts = recipe('fletching', 'cut_arrow_shafts');
      const done = expectOk(processRecipe(shafts, ctx('fletching', 1, inventoryOf([0, 'knife', 1], [1, 'logs', 1], [2, 'arrow_shaft', 5]), null), () => 0));
      assert.equal(countItem(done.inventory, 'arrow_shaft'), 20);
      assert.equal(countItem(done.inventory, 'logs'), 0);
      const feathers = recipe('fletching', 'attach_feathers');
      assert.equal(maxBatches(feathers, inventoryOf([0, 'arrow_shaft', 45], [1, 'feather', 31])), 2);
      assert.equal(maxBatches(shafts, inventoryOf([1, 'logs', 1])), 0);
    });

    it('crafts runes only at a rune altar', () => {
      const air = recipe('runecrafting', 'craft_air_runes');
      const inventory = inventoryOf([0, 'rune_essence', 1], [1, 'rune_essence', 1]);
      const done = expectOk(processRecipe(air, ctx('runecrafting', 1, inventory, 'rune-altar'), () => 0));
      assert.deepEqual(inventoryTotals(done.inventory), new Map([['air_rune', 1], ['rune_essence', 1]]));
      assert.ok(stationAccepts(air, 'runecrafting', 'rune-altar'));
      assert.ok(!stationAccepts(air, 'runecrafting', 'altar'));
      expectCode(processRecipe(air, ctx('runecrafting', 1, inventory, 'altar'), () => 0), 'WRONG_STATION');
    });

    it('frees input slots for the output and refuses when the output cannot be held', () => {
      const string = recipe('fletching', 'string_oak_shortbow');
      // Stringing frees two slots for one bow: fits even in a full inventory.
      const full = filledWithLogs(26, inventoryOf([26, 'unstrung_oak_shortbow', 1], [27, 'bowstring', 1]));
      assert.ok(processRecipe(string, ctx('fletching', 20, full, null), () => 0).ok);
      // Cutting a log frees its slot, but 15 more shafts would overflow the stack.
      const shafts = recipe('fletching', 'cut_arrow_shafts');
      const stacked = inventoryOf([0, 'knife', 1], [1, 'logs', 1], [2, 'arrow_shaft', MAX_STACK - 14]);
      expectCode(processRecipe(shafts, ctx('fletching', 1, stacked, null), () => 0), 'STACK_LIMIT');
    });
  });

  describe('firemaking', () => {
    const fireCtx = (over: Partial<FireContext> = {}): FireContext => ({
      level: 1,
      inventory: inventoryOf([0, 'tinderbox', 1], [1, 'logs', 1]),
      items: data.itemsById,
      x: 5,
      z: 6,
      isBlocked: () => false,
      hasFire: () => false,
      now: 1000,
      ...over,
    });

    it('lights a fire on the tile from logs, with XP; a failed attempt uses nothing', () => {
      const burn = recipe('firemaking', 'burn_logs');
      const lit = expectOk(lightFire(burn, fireCtx(), () => 0));
      assert.equal(countItem(lit.inventory, 'logs'), 0);
      assert.deepEqual([lit.fire?.x, lit.fire?.z, lit.xpTenths], [5, 6, 400]);
      const failed = expectOk(lightFire(burn, fireCtx(), () => 0.99));
      assert.equal(failed.fire, null);
      assert.equal(countItem(failed.inventory, 'logs'), 1);
    });

    it('leaves ashes on the ground when the fire burns out', () => {
      const lit = expectOk(lightFire(recipe('firemaking', 'burn_logs'), fireCtx(), () => 0));
      const piles = burnOut(lit.fire!, data.itemsById, () => 'ash-1');
      assert.deepEqual(piles.map((p) => [p.itemId, p.x, p.z, p.ownerId]), [['ashes', 5, 6, null]]);
    });

    it('refuses blocked tiles, tiles with a fire, no tinderbox, too low a level', () => {
      const burn = recipe('firemaking', 'burn_logs');
      expectCode(lightFire(burn, fireCtx({ isBlocked: () => true }), () => 0), 'BLOCKED_TILE');
      expectCode(lightFire(burn, fireCtx({ hasFire: () => true }), () => 0), 'FIRE_EXISTS');
      expectCode(lightFire(burn, fireCtx({ inventory: inventoryOf([1, 'logs', 1]) }), () => 0), 'MISSING_TOOL');
      expectCode(lightFire(recipe('firemaking', 'burn_willow_logs'), fireCtx({ inventory: inventoryOf([0, 'tinderbox', 1], [1, 'willow_logs', 1]) }), () => 0), 'LEVEL_TOO_LOW');
    });
  });
});
