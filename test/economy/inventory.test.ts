import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { visibleEntities } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  AT_BANK, GENERAL_STORE, HOME, lastSync, ok, refusal, request, rowsOf, seededPlayer, stack, until, worldRoomOf,
} from './support.ts';

const BAD_QUANTITIES = [0, -1, 1.5, 2_147_483_648, 1e12];

describe('inventory, equipment, ground items and home teleport @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({
      GROUND_ITEM_PRIVATE_SECONDS: '2', GROUND_ITEM_PUBLIC_SECONDS: '2',
      HOME_TELEPORT_CAST_TICKS: '2', HOME_TELEPORT_COOLDOWN_SECONDS: '3',
    });
  });
  after(() => server?.close());
  const db = () => server.context.db;

  describe('inventory:use', () => {
    it('eats food: one piece leaves the game and heals (stored health too)', async () => {
      const p = await seededPlayer(server, HOME, { inventory: [stack('shrimp'), stack('shrimp')], health: 40 });
      assert.equal(lastSync(p.client).health, 40);
      const used = await ok(p.client, 'inventory:use', { slot: 1, itemId: 'shrimp' }, 'inventory:used');
      assert.deepEqual(used.data, { slot: 1, itemId: 'shrimp', effect: 'eaten', healed: 30, health: 70 });
      assert.equal(lastSync(p.client).health, 70);
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(rows.inventory, [{ slot: 0, item_id: 'shrimp', quantity: 1 }]);
      assert.equal(rows.health, 70);
      p.client.close();
    });

    it('eating answers one player:sync, already showing the healed health and the food gone', async () => {
      const p = await seededPlayer(server, HOME, { inventory: [stack('shrimp'), stack('bread')], health: 40 });
      const from = p.client.events.length;
      p.client.send('inventory:use', { slot: 0, itemId: 'shrimp' });
      await p.client.waitFor('inventory:used', () => true, 5_000, from);
      const syncs = p.client.events.slice(from).filter((e) => e.type === 'player:sync');
      assert.deepEqual(syncs.map((e) => e.data.health), [70], 'one player:sync, with the healed value');
      assert.deepEqual(syncs[0].data.inventory.slice(0, 2), [null, stack('bread')]);
      p.client.close();
    });

    it('wields and wears through use, buries bones, and refuses what has no use or is not in the slot', async () => {
      const p = await seededPlayer(server, HOME, { inventory: [stack('bronze_sword'), stack('bones'), stack('coins', 5), null, stack('bread')] });
      const used = await ok(p.client, 'inventory:use', { slot: 0, itemId: 'bronze_sword' }, 'inventory:used');
      assert.equal(used.data.effect, 'equipped');
      assert.deepEqual(lastSync(p.client).equipment.weapon, { itemId: 'bronze_sword', quantity: 1 });
      assert.equal((await ok(p.client, 'inventory:use', { slot: 1, itemId: 'bones' }, 'inventory:used')).data.prayerXp, 4.5);
      assert.equal(await refusal(p.client, 'inventory:use', { slot: 2, itemId: 'coins' }), 'NOTHING_TO_DO');
      assert.equal(await refusal(p.client, 'inventory:use', { slot: 4, itemId: 'shrimp' }), 'ITEM_MISMATCH');
      assert.equal(await refusal(p.client, 'inventory:use', { slot: 3, itemId: 'bread' }), 'EMPTY_SLOT');
      assert.equal(await refusal(p.client, 'inventory:use', { slot: 28, itemId: 'bread' }), 'INVALID_SLOT');
      assert.equal(await refusal(p.client, 'inventory:use', { slot: 4, itemId: 'no_such_item' }), 'UNKNOWN_ITEM');
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(rows.inventory.map((r) => r.item_id), ['coins', 'bread']);
      assert.deepEqual(rows.equipment, [{ slot_type: 'weapon', item_id: 'bronze_sword', quantity: 1 }]);
      const [xp] = await db().em.fork().execute('select prayer_xp_tenths from characters where id = ?', [p.characterId]);
      assert.equal(Number(xp.prayer_xp_tenths), 45, 'the 4.5 XP stored exactly, in tenths');
      p.client.close();
    });
  });

  describe('inventory:move', () => {
    it('swaps two slots and refuses bad or empty slots', async () => {
      const p = await seededPlayer(server, HOME, { inventory: [stack('coins', 7), null, stack('bread')] });
      await ok(p.client, 'inventory:move', { from: 0, to: 2 }, 'player:sync');
      assert.deepEqual(lastSync(p.client).inventory.slice(0, 3), [stack('bread'), null, stack('coins', 7)]);
      for (const [from, to] of [[1, 0], [0, 28], [-1, 0], [0.5, 1]]) {
        assert.match(await refusal(p.client, 'inventory:move', { from, to }), /^(EMPTY_SLOT|INVALID_SLOT)$/);
      }
      assert.equal(await refusal(p.client, 'inventory:move', { from: '0', to: 1 }), 'INVALID_PAYLOAD');
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(rows.inventory, [{ slot: 0, item_id: 'bread', quantity: 1 }, { slot: 2, item_id: 'coins', quantity: 7 }]);
      assert.equal(rows.coins, 7, 'characters.coins mirrors the inventory');
      p.client.close();
    });
  });

  describe('equipment', () => {
    it('equips, exposes bonuses, applies level requirements and the two-handed rules, unequips', async () => {
      const p = await seededPlayer(server, HOME, {
        inventory: [stack('bronze_kiteshield'), stack('bronze_greatsword'), stack('iron_sword'), stack('bronze_arrows', 30), stack('bronze_arrows', 0 + 20)].slice(0, 4),
      });
      await ok(p.client, 'equipment:equip', { inventorySlot: 0 }, 'player:sync');
      let sync = lastSync(p.client);
      assert.deepEqual(sync.equipment.shield, stack('bronze_kiteshield'));
      assert.ok(sync.bonuses.defenseSlash > 0, 'worn bonuses are in player:sync');
      assert.equal(await refusal(p.client, 'equipment:equip', { inventorySlot: 2 }), 'LEVEL_TOO_LOW');
      // A two-handed weapon takes the shield off (into the slot the weapon came from).
      await ok(p.client, 'equipment:equip', { inventorySlot: 1 }, 'player:sync');
      sync = lastSync(p.client);
      assert.deepEqual([sync.equipment.weapon, sync.equipment.shield, sync.inventory[1]], [stack('bronze_greatsword'), null, stack('bronze_kiteshield')]);
      // And a shield takes the two-handed weapon off.
      await ok(p.client, 'equipment:equip', { inventorySlot: 1 }, 'player:sync');
      sync = lastSync(p.client);
      assert.deepEqual([sync.equipment.weapon, sync.equipment.shield, sync.inventory[1]], [null, stack('bronze_kiteshield'), stack('bronze_greatsword')]);
      await ok(p.client, 'equipment:equip', { inventorySlot: 3 }, 'player:sync');
      assert.deepEqual(lastSync(p.client).equipment.ammunition, stack('bronze_arrows', 30));
      assert.equal(await refusal(p.client, 'equipment:equip', { inventorySlot: 3 }), 'EMPTY_SLOT');
      assert.equal(await refusal(p.client, 'equipment:unequip', { slot: 'head' }), 'SLOT_EMPTY');
      assert.equal(await refusal(p.client, 'equipment:unequip', { slot: 'tail' }), 'INVALID_EQUIPMENT_SLOT');
      await ok(p.client, 'equipment:unequip', { slot: 'ammunition' }, 'player:sync');
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(rows.equipment, [{ slot_type: 'shield', item_id: 'bronze_kiteshield', quantity: 1 }]);
      assert.deepEqual(rows.inventory.map((r) => [r.slot, r.item_id, r.quantity]), [[0, 'bronze_arrows', 30], [1, 'bronze_greatsword', 1], [2, 'iron_sword', 1]]);
      p.client.close();
    });

    it('refuses to unequip into a full inventory and to wear what cannot be worn; a met requirement equips', async () => {
      const full = Array.from({ length: 28 }, () => stack('bread'));
      full[0] = stack('coins', 3);
      full[1] = stack('iron_sword');
      const p = await seededPlayer(server, HOME, { inventory: full, equipment: { head: stack('bronze_full_helm') }, levels: { attack: 10 } });
      assert.equal(await refusal(p.client, 'equipment:unequip', { slot: 'head' }), 'INVENTORY_FULL');
      assert.equal(await refusal(p.client, 'equipment:equip', { inventorySlot: 0 }), 'NOT_EQUIPABLE');
      await ok(p.client, 'equipment:equip', { inventorySlot: 1 }, 'player:sync');
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(rows.equipment.map((r) => r.item_id).sort(), ['bronze_full_helm', 'iron_sword']);
      assert.equal(rows.inventory.length, 27);
      p.client.close();
    });
  });

  describe('dropping and picking up', () => {
    it('drops part of a stack to a persisted ground item, private to the owner, then public, picked up exactly once', async () => {
      const owner = await seededPlayer(server, { x: 96, z: 96 }, { inventory: [stack('coins', 100), stack('bronze_dagger')] });
      const other = await seededPlayer(server, { x: 97, z: 96 }, {});
      for (const quantity of BAD_QUANTITIES) assert.equal(await refusal(owner.client, 'inventory:drop', { slot: 0, quantity }), 'INVALID_QUANTITY');
      assert.equal(await refusal(owner.client, 'inventory:drop', { slot: 5 }), 'EMPTY_SLOT');
      const dropped = await ok(owner.client, 'inventory:drop', { slot: 0, quantity: 40 }, 'inventory:dropped');
      const id = dropped.data.groundItemId;
      assert.deepEqual({ ...dropped.data, groundItemId: undefined }, { groundItemId: undefined, itemId: 'coins', quantity: 40, x: 96, z: 96 });
      let rows = await rowsOf(db(), owner.characterId);
      assert.deepEqual(rows.ground.map((g) => [g.id, g.item_id, g.quantity]), [[id, 'coins', 40]]);
      assert.deepEqual(rows.inventory[0], { slot: 0, item_id: 'coins', quantity: 60 });
      assert.equal(rows.coins, 60);
      await owner.client.waitFor('world:update', (d) => d.added.some((e: { id: string }) => e.id === id));
      assert.equal(visibleEntities(other.client).has(`groundItem:${id}`), false, 'private to the owner at first');
      assert.equal(await refusal(other.client, 'groundItem:pickup', { groundItemId: id }), 'NOT_FOUND');
      // After the private window everyone sees it; the other player takes it, and the owner cannot any more.
      await other.client.waitFor('world:update', (d) => d.added.some((e: { id: string }) => e.id === id), 5_000);
      await ok(other.client, 'groundItem:pickup', { groundItemId: id }, 'groundItem:pickedUp');
      assert.equal(await refusal(owner.client, 'groundItem:pickup', { groundItemId: id }), 'NOT_FOUND');
      rows = await rowsOf(db(), owner.characterId);
      assert.deepEqual(rows.ground, []);
      const otherRows = await rowsOf(db(), other.characterId);
      assert.deepEqual(otherRows.inventory, [{ slot: 0, item_id: 'coins', quantity: 40 }]);
      assert.equal(otherRows.coins, 40);
      await owner.client.waitFor('world:update', (d) => d.removed.some((e: { id: string }) => e.id === id));
      owner.client.close();
      other.client.close();
    });

    it('drops a whole slot, picks it back up, and lets an unclaimed item expire (a sink: the row is deleted)', async () => {
      const p = await seededPlayer(server, { x: 104, z: 96 }, { inventory: [stack('bronze_dagger'), stack('bread')] });
      const first = (await ok(p.client, 'inventory:drop', { slot: 0, quantity: 5 }, 'inventory:dropped')).data;
      assert.equal(first.quantity, 1, 'amounts above the slot are clamped');
      await ok(p.client, 'groundItem:pickup', { groundItemId: first.groundItemId }, 'groundItem:pickedUp');
      assert.deepEqual(lastSync(p.client).inventory.slice(0, 2), [stack('bronze_dagger'), stack('bread')]);
      const second = (await ok(p.client, 'inventory:drop', { slot: 1 }, 'inventory:dropped')).data;
      await p.client.waitFor('world:update', (d) => d.removed.some((e: { id: string }) => e.id === second.groundItemId), 8_000);
      await until(async () => (await rowsOf(db(), p.characterId)).ground.length === 0);
      assert.equal(await refusal(p.client, 'groundItem:pickup', { groundItemId: second.groundItemId }), 'NOT_FOUND');
      p.client.close();
    });

    it('refuses a pick-up out of reach and one that does not fit', async () => {
      const p = await seededPlayer(server, { x: 110, z: 96 }, {
        inventory: Array.from({ length: 28 }, () => stack('bread')), equipment: { head: stack('bronze_full_helm') },
      });
      const dropped = (await ok(p.client, 'inventory:drop', { slot: 0 }, 'inventory:dropped')).data;
      await ok(p.client, 'equipment:unequip', { slot: 'head' }, 'player:sync'); // fills the freed slot
      assert.equal(await refusal(p.client, 'groundItem:pickup', { groundItemId: dropped.groundItemId }), 'INVENTORY_FULL');
      p.client.send('player:move', { x: 113, z: 96 });
      await p.client.waitFor('world:update', (d) => d.changed.some((e: { id: string; x: number }) => e.id === p.characterId && e.x === 113), 5_000);
      assert.equal(await refusal(p.client, 'groundItem:pickup', { groundItemId: dropped.groundItemId }), 'OUT_OF_REACH');
      p.client.close();
    });
  });

  describe('the interface lock (trading)', () => {
    it('refuses every economy action with INTERFACE_BLOCKED and changes nothing; chat stays allowed', async () => {
      const p = await seededPlayer(server, AT_BANK, { inventory: [stack('coins', 50), stack('bronze_sword'), stack('shrimp')], health: 50 });
      const player = worldRoomOf(p.client).player(p.characterId)!;
      player.lock = 'trade';
      const attempts: Array<[string, unknown]> = [
        ['inventory:use', { slot: 2, itemId: 'shrimp' }], ['inventory:move', { from: 0, to: 5 }], ['inventory:drop', { slot: 0 }],
        ['groundItem:pickup', { groundItemId: 'x' }], ['equipment:equip', { inventorySlot: 1 }], ['equipment:unequip', { slot: 'weapon' }],
        ['bank:open', {}], ['bank:deposit', { slot: 0, quantity: 'all' }], ['bank:depositAll', {}], ['bank:depositEquipment', {}],
        ['bank:withdraw', { itemId: 'coins', quantity: 1 }], ['bank:tab:create', { name: 'x' }], ['shop:open', { storeId: GENERAL_STORE }],
        ['shop:buy', { storeId: GENERAL_STORE, itemId: 'bread', quantity: 1 }], ['shop:sell', { storeId: GENERAL_STORE, slot: 1, quantity: 1 }],
        ['gravestone:claim', { gravestoneId: 'x' }], ['player:homeTeleport', {}],
      ];
      for (const [type, data] of attempts) assert.equal(await refusal(p.client, type, data), 'INTERFACE_BLOCKED', type);
      p.client.send('player:chat', { message: 'still talking' });
      await p.client.waitFor('chat:message', (d) => d.message === 'still talking');
      player.lock = undefined;
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(rows.inventory.map((r) => [r.slot, r.item_id, r.quantity]), [[0, 'coins', 50], [1, 'bronze_sword', 1], [2, 'shrimp', 1]]);
      assert.deepEqual([rows.equipment, rows.bank, rows.ground, rows.health], [[], [], [], 50]);
      p.client.close();
    });

    it('checks the interface first: an event that other checks refuse too is refused INTERFACE_BLOCKED', async () => {
      const p = await seededPlayer(server, HOME, { inventory: [stack('coins', 50), stack('bronze_sword')] });
      const player = worldRoomOf(p.client).player(p.characterId)!;
      // Away from the bank and the shop, with bad quantities: each of these has a refusal of its own.
      const attempts: Array<[string, unknown, string]> = [
        ['bank:deposit', { slot: 0, quantity: 0 }, 'INVALID_QUANTITY'], ['bank:withdraw', { itemId: 'coins', quantity: -1 }, 'INVALID_QUANTITY'],
        ['bank:depositAll', {}, 'NOT_NEAR_BANK'], ['bank:tab:create', { name: 'x' }, 'NOT_NEAR_BANK'],
        ['shop:buy', { storeId: GENERAL_STORE, itemId: 'bread', quantity: 0 }, 'INVALID_QUANTITY'],
        ['shop:sell', { storeId: GENERAL_STORE, slot: 1, quantity: 1 }, 'NOT_NEAR_SHOP'],
        ['inventory:drop', { slot: 0, quantity: 1.5 }, 'INVALID_QUANTITY'], ['gravestone:claim', { gravestoneId: 'x' }, 'NOT_FOUND'],
      ];
      player.lock = 'trade';
      for (const [type, data] of attempts) assert.equal(await refusal(p.client, type, data), 'INTERFACE_BLOCKED', type);
      player.lock = undefined;
      for (const [type, data, code] of attempts) assert.equal(await refusal(p.client, type, data), code, type);
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(rows.inventory.map((r) => [r.slot, r.item_id, r.quantity]), [[0, 'coins', 50], [1, 'bronze_sword', 1]]);
      p.client.close();
    });
  });

  describe('home teleport', () => {
    it('casts, arrives home, then refuses during the cooldown', async () => {
      const p = await seededPlayer(server, { x: 104, z: 104 });
      const started = await ok(p.client, 'player:homeTeleport', {}, 'homeTeleport:started');
      assert.equal(started.data.castTicks, 2);
      assert.equal(await refusal(p.client, 'player:homeTeleport', {}), 'ALREADY_CASTING');
      const done = await p.client.waitFor('homeTeleport:completed', () => true, 5_000);
      assert.deepEqual(done.data, HOME);
      const sync = await p.client.waitFor('player:sync', (d) => d.x === HOME.x && d.z === HOME.z);
      assert.equal(sync.data.action, 'idle');
      const cooldown = await request(p.client, 'player:homeTeleport', {}, 'homeTeleport:started');
      assert.equal(cooldown.ok ? 'started' : cooldown.code, 'COOLDOWN');
      assert.ok(!cooldown.ok && Number(cooldown.error.readyInMs) > 0);
      p.client.close();
    });

    it('is interrupted by movement and by combat', async () => {
      const p = await seededPlayer(server, { x: 96, z: 104 });
      await ok(p.client, 'player:homeTeleport', {}, 'homeTeleport:started');
      p.client.send('player:move', { x: 95, z: 104 });
      assert.equal((await p.client.waitFor('homeTeleport:interrupted')).data.reason, 'moved');
      await sleep(700);
      const room = worldRoomOf(p.client);
      const player = room.player(p.characterId)!;
      player.inCombatUntilTick = room.currentTick() + 100;
      assert.equal(await refusal(p.client, 'player:homeTeleport', {}), 'IN_COMBAT');
      player.inCombatUntilTick = 0;
      await ok(p.client, 'player:homeTeleport', {}, 'homeTeleport:started');
      player.inCombatUntilTick = room.currentTick() + 100;
      assert.equal((await p.client.next('homeTeleport:interrupted')).data.reason, 'combat');
      assert.notDeepEqual({ x: player.x, z: player.z }, HOME);
      player.inCombatUntilTick = 0;
      p.client.close();
    });
  });

});
