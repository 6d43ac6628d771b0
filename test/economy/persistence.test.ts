import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killPlayer } from '../../rooms/world/features/economy/death.ts';
import { jsonPlayer, visibleEntities } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';
import {
  AT_BANK, AT_GENERAL_STORE, GENERAL_STORE, HOME, lastSync, ok, rowsOf, seededPlayer, stack, worldRoomOf, type Rows,
} from './support.ts';

/** The inventory and equipment a player:sync shows, as rows. */
function syncRows(sync: Record<string, any>): Pick<Rows, 'inventory' | 'equipment'> {
  return {
    inventory: (sync.inventory as Array<{ itemId: string; quantity: number } | null>)
      .flatMap((s, slot) => (s ? [{ slot, item_id: s.itemId, quantity: s.quantity }] : [])),
    equipment: Object.entries(sync.equipment as Record<string, { itemId: string; quantity: number } | null>)
      .flatMap(([slotType, s]) => (s ? [{ slot_type: slotType, item_id: s.itemId, quantity: s.quantity }] : []))
      .sort((a, b) => a.slot_type.localeCompare(b.slot_type)),
  };
}

describe('economy persistence: logout, auto-save, shutdown and restart @db', function () {
  this.timeout(90_000);
  let dataDir: string;
  let server: TestServer | undefined;

  before(() => { dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-economy-')); });
  after(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // SAVE_INTERVAL=1: auto-save runs again and again while items move; it must never write items back.
  const env = () => ({ PGLITE_DATA_DIR: path.join(dataDir, 'db'), JWT_SECRET: 'economy-persistence-secret', SAVE_INTERVAL: '1',
    WS_MESSAGES_PER_SECOND: '10000' });

  it('keeps inventory, bank, equipment, coins, ground items and gravestones exactly as committed', async () => {
    server = await startTestServer(env());
    const db = () => server!.context.db;
    const banker = await seededPlayer(server, AT_BANK, {
      inventory: [stack('coins', 100_000), stack('bronze_sword'), stack('bronze_full_helm'), stack('bread'), stack('bread'), stack('feather', 30)],
    });
    const shopper = await seededPlayer(server, AT_GENERAL_STORE, { inventory: [stack('coins', 100_000), stack('bronze_dagger')] });
    const dier = await seededPlayer(server, { x: 101, z: 101 }, {
      inventory: [stack('coins', 50), stack('iron_platebody'), stack('bronze_sword'), stack('bread'), stack('bronze_dagger'), stack('feather', 3)],
      equipment: { head: stack('iron_full_helm'), legs: stack('bronze_platelegs') },
    });

    // A stream of item moves spread over several auto-save intervals.
    const started = Date.now();
    let round = 0;
    while (Date.now() - started < 2_500) {
      await ok(banker.client, 'bank:deposit', { slot: 0, quantity: 7 }, 'bank:state');
      await ok(banker.client, 'bank:withdraw', { itemId: 'coins', quantity: 3 }, 'bank:state');
      await ok(banker.client, round % 2 === 0 ? 'equipment:equip' : 'equipment:unequip', round % 2 === 0 ? { inventorySlot: 1 } : { slot: 'weapon' }, 'player:sync');
      await ok(shopper.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'feather', quantity: 2 }, 'shop:state');
      round++;
    }
    assert.ok(server.context.autosave.runs >= 2, 'auto-save ran while items moved');
    await ok(banker.client, 'bank:tab:create', { name: 'Gear' }, 'bank:state');
    await ok(banker.client, 'bank:deposit', { slot: 2, quantity: 1, tab: 1 }, 'bank:state');
    await ok(shopper.client, 'shop:sell', { storeId: GENERAL_STORE, slot: 1, quantity: 1 }, 'shop:state');
    const dropped = (await ok(dier.client, 'inventory:drop', { slot: 3 }, 'inventory:dropped')).data;
    const room = worldRoomOf(dier.client);
    const { gravestone } = await killPlayer(room, room.player(dier.characterId)!);
    assert.ok(gravestone);
    await dier.client.waitFor('player:sync', (d) => d.x === HOME.x && d.z === HOME.z);

    // Memory (what the players were told) equals the database for everyone still online.
    for (const p of [banker, shopper, dier]) {
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(syncRows(lastSync(p.client)), { inventory: rows.inventory, equipment: rows.equipment });
    }

    // Logout: nothing extra to write for items.
    const bankerBefore = await rowsOf(db(), banker.characterId);
    banker.client.send('world:leave');
    await banker.client.waitFor('world:left');
    await new Promise((r) => setTimeout(r, 1_200)); // one more auto-save after the logout
    assert.deepEqual(await rowsOf(db(), banker.characterId), bankerBefore);

    const committed = new Map<string, Rows>();
    for (const p of [banker, shopper, dier]) committed.set(p.characterId, await rowsOf(db(), p.characterId));
    assert.equal(committed.get(dier.characterId)!.ground.length, 1);

    await server.close();
    server = await startTestServer(env());
    for (const p of [banker, shopper, dier]) {
      assert.deepEqual(await rowsOf(server.context.db, p.characterId), committed.get(p.characterId), 'the database after the restart');
    }

    // Back in the world: everyone sees what was committed; the ground item and the gravestone are back.
    const back = async (p: { account: typeof banker.account; characterId: string }): Promise<JsonWsClient> => {
      const client = await jsonPlayer(server!, p.account, p.characterId);
      await client.waitFor('player:sync');
      return client;
    };
    const bankerAgain = await back(banker);
    const bankRows = committed.get(banker.characterId)!;
    assert.deepEqual(syncRows(lastSync(bankerAgain)), { inventory: bankRows.inventory, equipment: bankRows.equipment });
    const state = (await ok(bankerAgain, 'bank:open', {}, 'bank:state')).data;
    assert.deepEqual(state.tabs.map((t: { name: string }) => t.name), ['main', 'Gear']);
    assert.deepEqual(
      state.tabs.flatMap((t: { index: number; items: Array<{ itemId: string; quantity: number }> }) => t.items.map((i, position) => ({ tab_index: t.index, position, item_id: i.itemId, quantity: i.quantity }))),
      bankRows.bank,
    );
    const shopperAgain = await back(shopper);
    assert.deepEqual(syncRows(lastSync(shopperAgain)).inventory, committed.get(shopper.characterId)!.inventory);
    assert.equal(committed.get(shopper.characterId)!.coins, syncRows(lastSync(shopperAgain)).inventory.find((r) => r.item_id === 'coins')!.quantity);

    const dierAgain = await back(dier);
    await dierAgain.waitFor('world:update', () => {
      const seen = visibleEntities(dierAgain);
      return seen.has(`gravestone:${gravestone.id}`) && seen.has(`groundItem:${dropped.groundItemId}`);
    });
    await ok(dierAgain, 'gravestone:claim', { gravestoneId: gravestone.id }, 'gravestone:claimed');
    await ok(dierAgain, 'groundItem:pickup', { groundItemId: dropped.groundItemId }, 'groundItem:pickedUp');
    const dierRows = await rowsOf(server.context.db, dier.characterId);
    assert.deepEqual(dierRows.ground, []);
    assert.deepEqual(dierRows.deaths.map((d) => d.status), ['reclaimed']);
    const total = (rows: Rows) => [...rows.inventory, ...rows.equipment].reduce((n, r) => n + r.quantity, 0);
    const before = committed.get(dier.characterId)!;
    assert.equal(total(dierRows), total(before) + 1 + (before.deaths[0].items as Array<{ quantity: number }>).reduce((n, i) => n + i.quantity, 0));
    for (const c of [bankerAgain, shopperAgain, dierAgain]) c.close();
  });
});
