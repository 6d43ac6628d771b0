import assert from 'node:assert/strict';
import { chooseOption, startDialogue, type DialogueContext } from '../../src/game/dialogue.ts';
import { MAIN_TAB_NAME, emptyBank, type Bank } from '../../src/game/bank.ts';
import { emptyInventory, type Inventory, type InventoryItem } from '../../src/game/inventory.ts';
import { placeRewardItems } from '../../src/game/quest-rewards.ts';
import { handInFor, heldObjectivesMet, holdsAll, questJournal, takeHandIn } from '../../src/game/quests.ts';
import { startingLevels } from '../../src/game/skills.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { Quest } from '../../src/manifests/schemas/quests.ts';
import { bundledData } from './support/bundled-data.ts';
import { expectCode, expectOk } from './support/results.ts';

function inventoryOf(...stacks: InventoryItem[]): Inventory {
  const inventory = [...emptyInventory()];
  stacks.forEach((s, i) => (inventory[i] = s));
  return inventory;
}

describe('quest item objectives', () => {
  let data: GameData;
  before(async () => {
    data = await bundledData();
  });
  const quest = (id: string) => data.questsById.get(id)!;

  it('moves a stage on when the inventory holds its completeWhen items, and only that stage', () => {
    const locket = inventoryOf({ itemId: 'tarnished_locket', quantity: 1 });
    const met = heldObjectivesMet({ lost_locket: 1 }, data.questsById, locket);
    assert.deepEqual(met.map((m) => [m.quest.id, m.stage]), [['lost_locket', 2]]);
    assert.deepEqual(heldObjectivesMet({ lost_locket: 1 }, data.questsById, emptyInventory()), []);
    assert.deepEqual(heldObjectivesMet({ lost_locket: 2 }, data.questsById, locket), [], 'stage 2 waits for the hand-in');
    assert.deepEqual(heldObjectivesMet({}, data.questsById, locket), [], 'holding the locket does not start the quest');
    assert.deepEqual(heldObjectivesMet({ lost_locket: 3 }, data.questsById, locket), [], 'completed quests stay completed');
  });

  it('takes the hand-in all or nothing, adding up stacks over several slots', () => {
    const forge = quest('cold_forge');
    assert.deepEqual(handInFor(forge, 1), [{ itemId: 'bronze_bar', quantity: 5 }]);
    assert.deepEqual(handInFor(forge, 0), []);
    const four = inventoryOf(...Array.from({ length: 4 }, () => ({ itemId: 'bronze_bar', quantity: 1 })), { itemId: 'coins', quantity: 9 });
    assert.equal(holdsAll(four, handInFor(forge, 1)), false);
    expectCode(takeHandIn(four, forge, 1), 'MISSING_ITEMS');
    const six = inventoryOf(...Array.from({ length: 6 }, () => ({ itemId: 'bronze_bar', quantity: 1 })));
    assert.equal(holdsAll(six, handInFor(forge, 1)), true);
    const after = expectOk(takeHandIn(six, forge, 1));
    assert.equal(after.filter((s) => s?.itemId === 'bronze_bar').length, 1);
    assert.equal(expectOk(takeHandIn(four, forge, 0)), four, 'no hand-in: the inventory is unchanged');
  });

  it('hides a hand-in option until the items are held (when the context carries the inventory)', () => {
    const dunstan = data.dialoguesById.get('dunstan_smithy')!;
    const ctx = (inventory: Inventory): DialogueContext => ({ log: { cold_forge: 1 }, quests: data.questsById, levels: { ...startingLevels(), mining: 5 }, inventory });
    const bars = (n: number) => inventoryOf(...Array.from({ length: n }, () => ({ itemId: 'bronze_bar', quantity: 1 })));
    const texts = (inventory: Inventory) => expectOk(startDialogue(dunstan, ctx(inventory))).options.map((o) => o.text);
    assert.ok(!texts(bars(4)).includes("I've brought the bronze bars."));
    assert.ok(texts(bars(5)).includes("I've brought the bronze bars."));
    const greet = expectOk(startDialogue(dunstan, ctx(bars(4))));
    expectCode(chooseOption(dunstan, greet.session!, 'forge_done', ctx(bars(4))), 'INVALID_OPTION');
    expectCode(chooseOption(dunstan, greet.session!, 2, ctx(bars(4))), 'OPTION_UNAVAILABLE');
  });

  it('journals every quest with status, stage and what to do next', () => {
    const journal = questJournal({ lost_locket: 3, cold_forge: 1 }, data.questsById);
    assert.deepEqual(journal.map((j) => [j.questId, j.status, j.stage, j.finalStage]), [
      ['lost_locket', 'completed', 3, 3], ['cold_forge', 'in-progress', 1, 2], ['rites_of_the_barrow', 'not-started', 0, 3],
    ]);
    assert.equal(journal[1].description, 'Smelt five bronze bars and bring them to Dunstan.');
  });

  it('refuses objectives on stage 0 or on the last stage, and both kinds on one stage', () => {
    const base = structuredClone(data.questsById.get('cold_forge')!) as Record<string, any>;
    assert.ok(Quest.safeParse(base).success);
    const withObjective = (stage: number, objective: Record<string, unknown>) => {
      const copy = structuredClone(base);
      Object.assign(copy.stages[stage], objective);
      return Quest.safeParse(copy).success;
    };
    const holding = { completeWhen: { holding: [{ itemId: 'bronze_bar', quantity: 1 }] } };
    const handIn = { handIn: [{ itemId: 'bronze_bar', quantity: 1 }] };
    assert.equal(withObjective(0, handIn), false);
    assert.equal(withObjective(2, holding), false);
    assert.equal(withObjective(1, { ...holding, ...handIn }), false);
    assert.equal(withObjective(1, { handIn: undefined, ...holding }), true);
  });
});

describe('quest reward placement', () => {
  let data: GameData;
  before(async () => {
    data = await bundledData();
  });
  const rewards = [{ itemId: 'coins', quantity: 250 }, { itemId: 'iron_pickaxe', quantity: 1 }];

  it('puts rewards in the inventory while they fit', () => {
    const placed = expectOk(placeRewardItems(emptyInventory(), emptyBank(), data.itemsById, rewards));
    assert.deepEqual(placed.delivered, [{ itemId: 'coins', quantity: 250, to: 'inventory' }, { itemId: 'iron_pickaxe', quantity: 1, to: 'inventory' }]);
    assert.deepEqual(placed.bank, emptyBank());
  });

  it('sends what does not fit to the bank, and refuses when the bank cannot take it either', () => {
    const full = inventoryOf(...Array.from({ length: 28 }, () => ({ itemId: 'logs', quantity: 1 })));
    const placed = expectOk(placeRewardItems(full, emptyBank(), data.itemsById, rewards));
    assert.deepEqual(placed.delivered.map((d) => d.to), ['bank', 'bank']);
    assert.deepEqual(placed.bank.tabs[0].items, [{ itemId: 'coins', quantity: 250 }, { itemId: 'iron_pickaxe', quantity: 1 }]);
    assert.deepEqual(placed.inventory, full);
    const almost = inventoryOf(...Array.from({ length: 27 }, () => ({ itemId: 'logs', quantity: 1 })));
    const split = expectOk(placeRewardItems(almost, emptyBank(), data.itemsById, rewards));
    assert.deepEqual(split.delivered.map((d) => [d.itemId, d.to]), [['coins', 'inventory'], ['iron_pickaxe', 'bank']]);
    const crowded: Bank = { tabs: [{ name: MAIN_TAB_NAME, items: Array.from({ length: 400 }, (_, i) => ({ itemId: `x${i}`, quantity: 1 })) }] };
    expectCode(placeRewardItems(full, crowded, data.itemsById, rewards), 'NO_ROOM_FOR_REWARDS');
  });
});
