import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  AT_GENERAL_STORE, AT_SMITHY, GENERAL_STORE, HOME, SMITHY, lastSync, ok, refusal, request, rowsOf, seededPlayer, stack, until,
} from './support.ts';

const BAD_QUANTITIES = [0, -3, 2.5, 2_147_483_648];

describe('shops @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(() => server?.close());
  const db = () => server.context.db;
  const stockOf = (state: { items: Array<{ itemId: string; quantity: number }> }, itemId: string) => state.items.find((i) => i.itemId === itemId)?.quantity;

  it('opens only beside the shopkeeper and lists stock with prices', async () => {
    const away = await seededPlayer(server, HOME, { inventory: [stack('coins', 100)] });
    assert.equal(await refusal(away.client, 'shop:open', { storeId: GENERAL_STORE }, 'shop:state'), 'NOT_NEAR_SHOP');
    assert.equal(await refusal(away.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'bread', quantity: 1 }, 'shop:state'), 'NOT_NEAR_SHOP');
    assert.equal(await refusal(away.client, 'shop:open', { storeId: 'nowhere' }, 'shop:state'), 'UNKNOWN_STORE');
    const near = await seededPlayer(server, AT_GENERAL_STORE);
    assert.equal(await refusal(near.client, 'shop:open', { storeId: SMITHY }, 'shop:state'), 'NOT_NEAR_SHOP', 'beside the wrong shopkeeper');
    const state = (await ok(near.client, 'shop:open', { storeId: GENERAL_STORE }, 'shop:state')).data;
    assert.equal(state.name, "Mirela's General Store");
    assert.deepEqual(state.items.find((i: { itemId: string }) => i.itemId === 'bread'), { itemId: 'bread', quantity: 20, buyPrice: 12, sellPrice: 4 });
    away.client.close();
    near.client.close();
  });

  it('buys for coins (stock and characters.coins follow) and refuses without taking anything', async () => {
    const p = await seededPlayer(server, AT_GENERAL_STORE, { inventory: [stack('coins', 30)] });
    const bought = (await ok(p.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'bread', quantity: 2 }, 'shop:state')).data;
    assert.deepEqual(bought.last, { action: 'bought', itemId: 'bread', quantity: 2, coins: 24 });
    assert.equal(stockOf(bought, 'bread'), 18);
    assert.deepEqual(lastSync(p.client).inventory.slice(0, 3), [stack('coins', 6), stack('bread'), stack('bread')]);
    assert.equal(await refusal(p.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'bread', quantity: 1 }, 'shop:state'), 'NOT_ENOUGH_COINS');
    assert.equal(await refusal(p.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'bread', quantity: 19 }, 'shop:state'), 'OUT_OF_STOCK');
    assert.equal(await refusal(p.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'steel_sword', quantity: 1 }, 'shop:state'), 'NOT_SOLD_HERE');
    for (const quantity of BAD_QUANTITIES) {
      assert.equal(await refusal(p.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'feather', quantity }, 'shop:state'), 'INVALID_QUANTITY');
      assert.equal(await refusal(p.client, 'shop:sell', { storeId: GENERAL_STORE, slot: 1, quantity }, 'shop:state'), 'INVALID_QUANTITY');
    }
    const rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.inventory.map((r) => [r.item_id, r.quantity]), [['coins', 6], ['bread', 1], ['bread', 1]]);
    assert.equal(rows.coins, 6);
    p.client.close();
  });

  it('refuses a purchase into a full inventory without taking the coins; paying with the last coins frees their slot', async () => {
    const inventory = Array.from({ length: 27 }, () => stack('bread'));
    const p = await seededPlayer(server, AT_GENERAL_STORE, { inventory: [stack('coins', 100), ...inventory] });
    assert.equal(await refusal(p.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'knife', quantity: 1 }, 'shop:state'), 'INVENTORY_FULL');
    let rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.inventory[0], { slot: 0, item_id: 'coins', quantity: 100 });
    assert.equal(rows.coins, 100);
    const knife = (await ok(p.client, 'shop:open', { storeId: GENERAL_STORE }, 'shop:state')).data.items.find((i: { itemId: string }) => i.itemId === 'knife');
    const exact = await seededPlayer(server, AT_GENERAL_STORE, { inventory: [stack('coins', knife.buyPrice), ...inventory] });
    await ok(exact.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'knife', quantity: 1 }, 'shop:state');
    rows = await rowsOf(db(), exact.characterId);
    assert.deepEqual(rows.inventory[0], { slot: 0, item_id: 'knife', quantity: 1 });
    assert.equal(rows.coins, 0);
    p.client.close();
    exact.client.close();
  });

  it('sells below the buying price; specialist stores buy only their own goods; coins cannot be sold', async () => {
    const p = await seededPlayer(server, AT_SMITHY, { inventory: [stack('bronze_sword'), stack('bread'), stack('coins', 3), stack('bronze_sword')] });
    const sold = (await ok(p.client, 'shop:sell', { storeId: SMITHY, slot: 3, quantity: 5 }, 'shop:state')).data;
    assert.deepEqual(sold.last, { action: 'sold', itemId: 'bronze_sword', quantity: 2, coins: 30 });
    assert.equal(stockOf(sold, 'bronze_sword'), 6);
    const sword = sold.items.find((i: { itemId: string }) => i.itemId === 'bronze_sword');
    assert.ok(sword.sellPrice < sword.buyPrice);
    assert.equal(await refusal(p.client, 'shop:sell', { storeId: SMITHY, slot: 1, quantity: 1 }, 'shop:state'), 'STORE_WONT_BUY');
    assert.equal(await refusal(p.client, 'shop:sell', { storeId: SMITHY, slot: 2, quantity: 1 }, 'shop:state'), 'CANNOT_SELL_COINS');
    assert.equal(await refusal(p.client, 'shop:sell', { storeId: SMITHY, slot: 0, quantity: 1 }, 'shop:state'), 'EMPTY_SLOT');
    const rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.inventory.map((r) => [r.item_id, r.quantity]), [['bread', 1], ['coins', 33]]);
    assert.equal(rows.coins, 33);
    p.client.close();
  });

  it('concurrent purchases of a stackable make one stack; two buyers never both get the last stock', async () => {
    const p = await seededPlayer(server, AT_GENERAL_STORE, { inventory: [stack('coins', 1000)] });
    // Fired together; the answers are not matched one to one, so wait for the committed result.
    for (let i = 0; i < 10; i++) p.client.send('shop:buy', { storeId: GENERAL_STORE, itemId: 'feather', quantity: 5 });
    await until(async () => (await rowsOf(db(), p.characterId)).inventory.some((r) => r.item_id === 'feather' && r.quantity === 50));
    await until(async () => p.client.events.filter((e) => e.type === 'shop:state').length >= 10);
    const rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.inventory.map((r) => [r.item_id, r.quantity]), [['coins', 900], ['feather', 50]], 'one feather stack');
    assert.equal(rows.coins, 900);

    const a = await seededPlayer(server, AT_GENERAL_STORE, { inventory: [stack('coins', 500)] });
    const b = await seededPlayer(server, { x: AT_GENERAL_STORE.x + 1, z: AT_GENERAL_STORE.z }, { inventory: [stack('coins', 500)] });
    const stock = stockOf((await ok(a.client, 'shop:open', { storeId: GENERAL_STORE }, 'shop:state')).data, 'wool_cape')!;
    assert.ok(stock >= 2);
    const half = Math.floor(stock / 2) + 1;
    const [ra, rb] = await Promise.all([
      request(a.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'wool_cape', quantity: half }, 'shop:state'),
      request(b.client, 'shop:buy', { storeId: GENERAL_STORE, itemId: 'wool_cape', quantity: half }, 'shop:state'),
    ]);
    assert.deepEqual([ra.ok, rb.ok].sort(), [false, true]);
    const refused = (ra.ok ? rb : ra) as { ok: false; code: string };
    assert.equal(refused.code, 'OUT_OF_STOCK');
    const capes = async (id: string) => (await rowsOf(db(), id)).inventory.filter((r) => r.item_id === 'wool_cape').length;
    assert.equal((await capes(a.characterId)) + (await capes(b.characterId)), half);
    for (const c of [p, a, b]) c.client.close();
  });
});
