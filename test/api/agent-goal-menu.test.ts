/** The goal menu, refusals and autonomous choice of src/agents/goal-menu.ts on the bundled world (pure). */
import assert from 'node:assert/strict';
import { automaticGoal, availableGoals, gatheringPlan, goalRefusal, keptForTraining, type CharacterFacts } from '../../src/agents/goal-menu.ts';
import { bankAccessTiles, bankSites } from '../../src/agents/planning.ts';
import { emptyEquipment } from '../../src/game/equipment.ts';
import { startingLevels } from '../../src/game/skills.ts';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { bundledData } from '../game/support/bundled-data.ts';
import { filledWithLogs, inventoryOf } from '../game/support/fixtures.ts';

describe('agent goal menu (pure)', () => {
  let data: GameData;
  before(async () => {
    data = await bundledData();
  });

  function facts(overrides: Partial<CharacterFacts> = {}): CharacterFacts {
    return { levels: startingLevels(), inventory: inventoryOf(), equipment: emptyEquipment(), combatLevel: 3, ...overrides };
  }

  it('training picks the best resource type the level and the tool allow, and says why when none', () => {
    const hatchet = inventoryOf([0, 'bronze_hatchet', 1]);
    assert.deepEqual(gatheringPlan(data, 'woodcutting', facts({ inventory: hatchet })).ready.map((o) => o.resourceId), ['tree']);
    const levels = { ...startingLevels(), woodcutting: 31 };
    assert.deepEqual(gatheringPlan(data, 'woodcutting', facts({ inventory: hatchet, levels })).ready.map((o) => o.resourceId), ['willow_tree', 'oak_tree', 'tree']);
    assert.deepEqual(goalRefusal({ type: 'train_skill', skill: 'woodcutting', targetLevel: 2 }, data, facts())?.code, 'NO_TOOL');
    // A full inventory is no refusal for training (it banks) but is for gathering.
    const full = filledWithLogs(27, hatchet);
    assert.equal(goalRefusal({ type: 'train_skill', skill: 'woodcutting', targetLevel: 2 }, data, facts({ inventory: full })), undefined);
    assert.equal(goalRefusal({ type: 'gather', skill: 'woodcutting', itemId: 'logs', quantity: 1 }, data, facts({ inventory: full }))?.code, 'INVENTORY_FULL');
    assert.equal(goalRefusal({ type: 'train_skill', skill: 'woodcutting', targetLevel: 31 }, data, facts({ inventory: hatchet, levels }))?.code, 'TARGET_LEVEL_REACHED');
    // Rod fishing without bait falls back to nothing (no net): the rule's own MISSING_ITEMS.
    const rod = inventoryOf([0, 'fishing_rod', 1]);
    assert.equal(goalRefusal({ type: 'train_skill', skill: 'fishing', targetLevel: 20 }, data, facts({ inventory: rod, levels: { ...startingLevels(), fishing: 15 } }))?.code, 'MISSING_ITEMS');
    assert.ok(keptForTraining(data, 'fishing').has('fishing_bait') && keptForTraining(data, 'woodcutting').has('steel_hatchet'));
  });

  it('the menu suits the character: training one level up, prey at its combat level, availability with codes', () => {
    const menu = availableGoals(data, facts({ inventory: inventoryOf([0, 'bronze_pickaxe', 1]), levels: { ...startingLevels(), mining: 7 }, combatLevel: 5 }));
    const byId = new Map(menu.map((g) => [g.id, g]));
    assert.equal(byId.get('train_skill:mining:8')?.available, true);
    assert.equal(byId.get('train_skill:woodcutting:2')?.unavailableCode, 'NO_TOOL');
    assert.equal(byId.get('kill:goblin:3')?.available, true, 'the strongest NPC type at combat level 5 outside PvP');
    assert.equal(byId.get('bank_inventory')?.available, true);
    assert.ok(byId.has('gather:mining:copper_ore:5') || byId.has('gather:mining:tin_ore:5'));
  });

  it('autonomous choice: bank a full inventory, else train, else travel; never a fight, never the goal that just failed', () => {
    const hatchet = inventoryOf([0, 'bronze_hatchet', 1]);
    const home = { x: 100, z: 100 };
    const full = facts({ inventory: filledWithLogs(27, hatchet) });
    assert.equal(automaticGoal(data, availableGoals(data, full), full, home, [])?.type, 'bank_inventory');
    const training = facts({ inventory: hatchet });
    assert.deepEqual(automaticGoal(data, availableGoals(data, training), training, home, []), { type: 'train_skill', skill: 'woodcutting', targetLevel: 2 });
    const failed = { spec: { type: 'train_skill', skill: 'woodcutting', targetLevel: 2 }, status: 'failed' } as never;
    assert.equal(automaticGoal(data, availableGoals(data, training), training, home, [failed])?.type, 'travel');
    const empty = facts();
    assert.equal(automaticGoal(data, availableGoals(data, empty), empty, home, [])?.type, 'travel');
  });

  it('bank access tiles are walkable, beside a booth or the banker, nearest first', () => {
    const blocked = computeBlockedTiles(data);
    const tiles = bankAccessTiles(blocked, bankSites(data), { x: 100, z: 100 });
    assert.ok(tiles.length > 0);
    assert.ok(tiles.every((t) => !blocked.isBlocked(t.x, t.z)));
    const [first, second] = tiles;
    assert.ok(Math.max(Math.abs(first!.x - 100), Math.abs(first!.z - 100)) <= Math.max(Math.abs(second!.x - 100), Math.abs(second!.z - 100)));
  });
});
