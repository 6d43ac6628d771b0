import assert from 'node:assert/strict';
import {
  DEFAULT_GROUND_TIMINGS,
  dropFromInventory,
  groundPhase,
  isVisibleTo,
  partitionExpired,
  pickUp,
  placeGroundItem,
  placeLoot,
} from '../../src/game/ground-items.ts';
import { countItem, emptyInventory } from '../../src/game/inventory.ts';
import { ITEMS, filledWithLogs, frozen, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

const T0 = 1_000_000;
const where = { id: 'g1', x: 10, z: 20, ownerId: 'alice', now: T0 };

describe('ground items', () => {
  it('are private to the owner for 60 s, public for 120 s more, then gone (defaults)', () => {
    const item = placeGroundItem({ itemId: 'logs', quantity: 1 }, true, where);
    assert.equal(item.publicAt, T0 + DEFAULT_GROUND_TIMINGS.privateMs);
    assert.equal(item.expiresAt, T0 + 180_000);
    assert.equal(groundPhase(item, T0), 'private');
    assert.ok(isVisibleTo(item, 'alice', T0));
    assert.ok(!isVisibleTo(item, 'bob', T0 + 59_999));
    assert.equal(groundPhase(item, T0 + 60_000), 'public');
    assert.ok(isVisibleTo(item, 'bob', T0 + 60_000));
    assert.equal(groundPhase(item, T0 + 180_000), 'expired');
    assert.ok(!isVisibleTo(item, 'alice', T0 + 180_000));
  });

  it('take their timings as parameters', () => {
    const item = placeGroundItem({ itemId: 'logs', quantity: 1 }, true, { ...where, timings: { privateMs: 5, publicMs: 10 } });
    assert.deepEqual([item.publicAt - T0, item.expiresAt - T0], [5, 15]);
  });

  it('never become public when untradeable; ownerless items are public at once', () => {
    const locket = placeGroundItem({ itemId: 'locket', quantity: 1 }, false, where);
    assert.ok(!isVisibleTo(locket, 'bob', T0 + 100_000));
    assert.ok(isVisibleTo(locket, 'alice', T0 + 100_000));
    const spawned = placeGroundItem({ itemId: 'logs', quantity: 1 }, true, { ...where, ownerId: null });
    assert.equal(groundPhase(spawned, T0), 'public');
  });

  it('drop the whole slot, keeping metadata', () => {
    const inventory = frozen([{ itemId: 'gem', quantity: 1, metadata: { cut: true } }, ...emptyInventory().slice(1)]);
    const { inventory: after, groundItem } = expectOk(dropFromInventory(inventory, ITEMS, 0, where));
    assert.equal(after[0], null);
    assert.deepEqual(groundItem.metadata, { cut: true });
    expectCode(dropFromInventory(inventory, ITEMS, 1, where), 'EMPTY_SLOT');
    expectCode(dropFromInventory(inventory, ITEMS, -1, where), 'INVALID_SLOT');
  });

  it('are picked up by whoever can see them, all or nothing', () => {
    const item = placeGroundItem({ itemId: 'coins', quantity: 50 }, true, where);
    assert.equal(countItem(expectOk(pickUp(inventoryOf([4, 'coins', 5]), ITEMS, item, 'alice', T0)), 'coins'), 55);
    expectCode(pickUp(emptyInventory(), ITEMS, item, 'bob', T0 + 1), 'NOT_VISIBLE');
    assert.ok(pickUp(emptyInventory(), ITEMS, item, 'bob', T0 + 60_000).ok);
    expectCode(pickUp(emptyInventory(), ITEMS, item, 'alice', T0 + 180_000), 'EXPIRED');
    const log = placeGroundItem({ itemId: 'logs', quantity: 1 }, true, where);
    expectCode(pickUp(filledWithLogs(28), ITEMS, log, 'alice', T0), 'INVENTORY_FULL');
  });

  it('expire out of a list', () => {
    const a = placeGroundItem({ itemId: 'logs', quantity: 1 }, true, where);
    const b = placeGroundItem({ itemId: 'logs', quantity: 1 }, true, { ...where, id: 'g2', now: T0 + 100_000 });
    const { remaining, expired } = partitionExpired([a, b], T0 + 180_000);
    assert.deepEqual(remaining.map((g) => g.id), ['g2']);
    assert.deepEqual(expired.map((g) => g.id), ['g1']);
  });

  it('place loot as one pile per stackable and one per unstackable unit', () => {
    let n = 0;
    const piles = placeLoot(
      [{ itemId: 'coins', quantity: 12 }, { itemId: 'logs', quantity: 3 }, { itemId: 'bones', quantity: 1 }],
      ITEMS,
      { x: 1, z: 2, ownerId: 'alice', now: T0, nextId: () => `loot-${n++}` },
    );
    assert.deepEqual(piles.map((p) => `${p.id}:${p.itemId}x${p.quantity}`), ['loot-0:coinsx12', 'loot-1:logsx1', 'loot-2:logsx1', 'loot-3:logsx1', 'loot-4:bonesx1']);
  });
});
