import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { AT_BANK, HOME, lastSync, ledger, ok, refusal, request, rowsOf, seededPlayer, stack } from './support.ts';

const BAD_QUANTITIES = [0, -1, 1.5, 2_147_483_648];
/** Beside the banker Osric (109, 87) but more than 2 tiles from either booth. */
const AT_BANKER = { x: 110, z: 88 };

type State = { tabs: Array<{ index: number; name: string; items: Array<{ itemId: string; quantity: number }> }> };
const tabsOf = (state: State) => state.tabs.map((t) => [t.name, t.items.map((i) => `${i.itemId}:${i.quantity}`)]);

describe('the bank @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => { server = await startTestServer({ WS_MESSAGES_PER_SECOND: '10000' }); });
  after(() => server?.close());
  const db = () => server.context.db;

  it('is refused away from a bank booth or banker, and opens beside either', async () => {
    const away = await seededPlayer(server, HOME, { inventory: [stack('coins', 10)] });
    for (const [type, data] of [['bank:open', {}], ['bank:deposit', { slot: 0, quantity: 1 }], ['bank:withdraw', { itemId: 'coins', quantity: 1 }], ['bank:depositAll', {}]] as const) {
      assert.equal(await refusal(away.client, type, data, 'bank:state'), 'NOT_NEAR_BANK');
    }
    const booth = await seededPlayer(server, AT_BANK);
    assert.deepEqual((await ok(booth.client, 'bank:open', {}, 'bank:state')).data, {
      tabs: [{ index: 0, name: 'main', items: [] }], distinctItems: 0, capacity: 400,
    });
    const banker = await seededPlayer(server, AT_BANKER);
    await ok(banker.client, 'bank:open', {}, 'bank:state');
    for (const p of [away, booth, banker]) p.client.close();
    assert.deepEqual((await rowsOf(db(), away.characterId)).inventory, [{ slot: 0, item_id: 'coins', quantity: 10 }]);
  });

  it('deposits and withdraws stacks and unstackables, clamping, partially when the inventory fills', async () => {
    const p = await seededPlayer(server, AT_BANK, {
      inventory: [stack('coins', 1000), stack('bronze_sword'), stack('bread'), stack('bronze_sword'), stack('bronze_sword')],
    });
    let state = await ok(p.client, 'bank:deposit', { slot: 0, quantity: 400 }, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:400']]]);
    state = await ok(p.client, 'bank:deposit', { slot: 3, quantity: 2 }, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:400', 'bronze_sword:2']]]);
    // The chosen slot first, then the lowest other slots holding the item.
    assert.deepEqual(lastSync(p.client).inventory.slice(0, 5), [stack('coins', 600), null, stack('bread'), null, stack('bronze_sword')]);
    state = await ok(p.client, 'bank:deposit', { slot: 0, quantity: 5000 }, 'bank:state'); // clamped to the 600 held
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:1000', 'bronze_sword:2']]]);
    for (const quantity of BAD_QUANTITIES) {
      assert.equal(await refusal(p.client, 'bank:deposit', { slot: 1, quantity }, 'bank:state'), 'INVALID_QUANTITY');
      assert.equal(await refusal(p.client, 'bank:withdraw', { itemId: 'coins', quantity }, 'bank:state'), 'INVALID_QUANTITY');
    }
    assert.equal(await refusal(p.client, 'bank:deposit', { slot: 0, quantity: 1 }, 'bank:state'), 'EMPTY_SLOT');
    assert.equal(await refusal(p.client, 'bank:deposit', { slot: 30, quantity: 1 }, 'bank:state'), 'INVALID_SLOT');
    assert.equal(await refusal(p.client, 'bank:withdraw', { itemId: 'salmon', quantity: 1 }, 'bank:state'), 'NOT_IN_BANK');
    assert.equal(await refusal(p.client, 'bank:withdraw', { tab: 0, index: 9, quantity: 1 }, 'bank:state'), 'NOT_IN_BANK');
    state = await ok(p.client, 'bank:withdraw', { itemId: 'coins', quantity: 250 }, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:750', 'bronze_sword:2']]]);
    state = await ok(p.client, 'bank:withdraw', { tab: 0, index: 1, quantity: 'all' }, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:750']]]);
    assert.deepEqual(lastSync(p.client).inventory.slice(0, 5), [stack('coins', 250), stack('bronze_sword'), stack('bread'), stack('bronze_sword'), stack('bronze_sword')]);
    const rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.bank, [{ tab_index: 0, position: 0, item_id: 'coins', quantity: 750 }]);
    assert.equal(rows.coins, 250, 'characters.coins mirrors the inventory coins');
    p.client.close();
  });

  it('withdraws what fits when the inventory fills, and refuses when nothing fits', async () => {
    const inventory = Array.from({ length: 26 }, () => stack('bread'));
    const bank = { tabs: [{ name: 'main', items: [{ itemId: 'bronze_dagger', quantity: 5 }, { itemId: 'feather', quantity: 9 }] }] };
    const p = await seededPlayer(server, AT_BANK, { inventory, bank });
    const state = await ok(p.client, 'bank:withdraw', { itemId: 'bronze_dagger', quantity: 5 }, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['bronze_dagger:3', 'feather:9']]]);
    assert.equal(await refusal(p.client, 'bank:withdraw', { itemId: 'feather', quantity: 1 }, 'bank:state'), 'INVENTORY_FULL');
    const rows = await rowsOf(db(), p.characterId);
    assert.equal(rows.inventory.length, 28);
    assert.deepEqual(rows.bank.map((b) => [b.item_id, b.quantity]), [['bronze_dagger', 3], ['feather', 9]]);
    p.client.close();
  });

  it('deposits the whole inventory and worn equipment (one slot or all)', async () => {
    const p = await seededPlayer(server, AT_BANK, {
      inventory: [stack('coins', 5), stack('bread'), stack('bread')],
      equipment: { weapon: stack('bronze_sword'), head: stack('bronze_full_helm'), ammunition: stack('bronze_arrows', 12) },
    });
    let state = await ok(p.client, 'bank:depositAll', {}, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:5', 'bread:2']]]);
    assert.equal(await refusal(p.client, 'bank:depositAll', {}, 'bank:state'), 'NOTHING_TO_DEPOSIT');
    state = await ok(p.client, 'bank:depositEquipment', { slot: 'head' }, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:5', 'bread:2', 'bronze_full_helm:1']]]);
    assert.equal(await refusal(p.client, 'bank:depositEquipment', { slot: 'head' }, 'bank:state'), 'SLOT_EMPTY');
    assert.equal(await refusal(p.client, 'bank:depositEquipment', { slot: 'wings' }, 'bank:state'), 'INVALID_EQUIPMENT_SLOT');
    state = await ok(p.client, 'bank:depositEquipment', {}, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:5', 'bread:2', 'bronze_full_helm:1', 'bronze_sword:1', 'bronze_arrows:12']]]);
    const rows = await rowsOf(db(), p.characterId);
    assert.deepEqual([rows.inventory, rows.equipment, rows.coins], [[], [], 0]);
    assert.equal(rows.bank.length, 5);
    p.client.close();
  });

  it('creates, renames, moves between and deletes tabs; deleting sends the items to the main tab', async () => {
    const bank = { tabs: [{ name: 'main', items: [{ itemId: 'coins', quantity: 50 }, { itemId: 'bread', quantity: 4 }, { itemId: 'feather', quantity: 7 }] }] };
    const p = await seededPlayer(server, AT_BANK, { inventory: [stack('bronze_dagger')], bank });
    await ok(p.client, 'bank:tab:create', { name: 'Food' }, 'bank:state');
    assert.equal(await refusal(p.client, 'bank:tab:create', { name: ' food ' }, 'bank:state'), 'TAB_NAME_TAKEN');
    assert.equal(await refusal(p.client, 'bank:tab:create', { name: '   ' }, 'bank:state'), 'INVALID_TAB_NAME');
    assert.equal(await refusal(p.client, 'bank:tab:rename', { tab: 0, name: 'x' }, 'bank:state'), 'MAIN_TAB');
    assert.equal(await refusal(p.client, 'bank:tab:delete', { tab: 0 }, 'bank:state'), 'MAIN_TAB');
    assert.equal(await refusal(p.client, 'bank:tab:delete', { tab: 4 }, 'bank:state'), 'INVALID_TAB');
    await ok(p.client, 'bank:tab:create', { name: 'Crafting' }, 'bank:state');
    await ok(p.client, 'bank:tab:move', { itemId: 'bread', toTab: 1 }, 'bank:state');
    await ok(p.client, 'bank:tab:move', { tab: 0, index: 1, toTab: 2 }, 'bank:state');
    let state = await ok(p.client, 'bank:tab:rename', { tab: 1, name: 'Meals' }, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:50']], ['Meals', ['bread:4']], ['Crafting', ['feather:7']]]);
    state = await ok(p.client, 'bank:deposit', { slot: 0, quantity: 1, tab: 2 }, 'bank:state');
    assert.deepEqual(tabsOf(state.data)[2], ['Crafting', ['feather:7', 'bronze_dagger:1']]);
    assert.equal(await refusal(p.client, 'bank:withdraw', { itemId: 'bread', tab: 2, quantity: 1 }, 'bank:state'), 'NOT_IN_BANK');
    await ok(p.client, 'bank:withdraw', { itemId: 'bread', tab: 1, quantity: 1 }, 'bank:state');
    let rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.tabs.map((t) => [t.tab_index, t.name]), [[0, 'main'], [1, 'Meals'], [2, 'Crafting']]);
    assert.deepEqual(rows.bank.map((b) => [b.tab_index, b.position, b.item_id, b.quantity]),
      [[0, 0, 'coins', 50], [1, 0, 'bread', 3], [2, 0, 'feather', 7], [2, 1, 'bronze_dagger', 1]]);
    state = await ok(p.client, 'bank:tab:delete', { tab: 1 }, 'bank:state');
    assert.deepEqual(tabsOf(state.data), [['main', ['coins:50', 'bread:3']], ['Crafting', ['feather:7', 'bronze_dagger:1']]]);
    rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.tabs.map((t) => [t.tab_index, t.name]), [[0, 'main'], [1, 'Crafting']]);
    assert.deepEqual(rows.bank.map((b) => [b.tab_index, b.position, b.item_id]),
      [[0, 0, 'coins'], [0, 1, 'bread'], [1, 0, 'feather'], [1, 1, 'bronze_dagger']]);
    // What bank:open shows is what the database holds.
    assert.deepEqual(tabsOf((await ok(p.client, 'bank:open', {}, 'bank:state')).data), tabsOf(state.data));
    p.client.close();
  });

  it('random sequences of bank, equipment, drop, pick-up and slot moves conserve every item and match memory', async () => {
    const seedValue = Number(process.env.ECONOMY_SEED ?? Date.now() % 100_000);
    let state = seedValue;
    const random = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const p = await seededPlayer(server, AT_BANK, {
      inventory: [stack('coins', 300), stack('bronze_sword'), stack('bronze_dagger'), stack('bronze_full_helm'), stack('bread'), stack('bread'), stack('feather', 40)],
      equipment: { legs: stack('bronze_platelegs') },
      bank: { tabs: [{ name: 'main', items: [{ itemId: 'coins', quantity: 100 }, { itemId: 'bronze_kiteshield', quantity: 2 }] }, { name: 'Misc', items: [{ itemId: 'bread', quantity: 3 }] }] },
    });
    const start = ledger(await rowsOf(db(), p.characterId));
    const slots = () => (lastSync(p.client).inventory as Array<unknown>).flatMap((s, i) => (s ? [i] : []));
    const ground: string[] = [];
    for (let step = 0; step < 40; step++) {
      const held = slots();
      const choices: Array<() => Promise<unknown>> = [
        () => request(p.client, 'bank:deposit', { slot: pick(held.length ? held : [0]), quantity: pick([1, 2, 5, 'all'] as const), tab: pick([0, 1]) }, 'bank:state'),
        () => request(p.client, 'bank:withdraw', { itemId: pick(['coins', 'bread', 'bronze_kiteshield', 'feather', 'bronze_sword']), quantity: pick([1, 3, 'all'] as const) }, 'bank:state'),
        () => request(p.client, 'bank:depositEquipment', pick([{}, { slot: 'legs' }, { slot: 'weapon' }]), 'bank:state'),
        () => request(p.client, 'bank:tab:move', { itemId: pick(['coins', 'bread', 'bronze_kiteshield']), toTab: pick([0, 1]) }, 'bank:state'),
        () => request(p.client, 'equipment:equip', { inventorySlot: pick(held.length ? held : [0]) }, 'player:sync'),
        () => request(p.client, 'equipment:unequip', { slot: pick(['weapon', 'shield', 'head', 'legs']) }, 'player:sync'),
        () => request(p.client, 'inventory:move', { from: pick(held.length ? held : [0]), to: Math.floor(random() * 28) }, 'player:sync'),
        async () => {
          const reply = await request(p.client, 'inventory:drop', { slot: pick(held.length ? held : [0]), quantity: pick([1, 2]) }, 'inventory:dropped');
          if (reply.ok) ground.push(reply.event.data.groundItemId);
        },
        async () => {
          if (ground.length === 0) return;
          const id = ground.splice(Math.floor(random() * ground.length), 1)[0];
          const reply = await request(p.client, 'groundItem:pickup', { groundItemId: id }, 'groundItem:pickedUp');
          if (!reply.ok) ground.push(id);
        },
      ];
      await pick(choices)();
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(ledger(rows), start, `seed ${seedValue}, step ${step}: items conserved`);
      const sync = lastSync(p.client);
      assert.deepEqual(rows.inventory, (sync.inventory as Array<{ itemId: string; quantity: number } | null>)
        .flatMap((x, slot) => (x ? [{ slot, item_id: x.itemId, quantity: x.quantity }] : [])), `seed ${seedValue}, step ${step}: memory = database`);
      assert.equal(rows.coins, rows.inventory.filter((r) => r.item_id === 'coins').reduce((n, r) => n + r.quantity, 0));
    }
    p.client.close();
  });
});
