import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  addItem, auditRow, bothAcceptScreen1, eventually, inventoryRows, itemTotals, openTrade, putItems, refusal,
  sendAndWait, terminalEvents, traderPair,
} from './support.ts';

describe('trading: the two-screen flow and the swap @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('happy path: offers swap with metadata, totals are conserved, an audit row is written, tradeCompleted then player:sync', async () => {
    const [a, b] = await traderPair(server,
      [{ slot: 0, itemId: 'bronze_sword', quantity: 1, metadata: { crafter: 'Ava', charges: 3 } }, { slot: 1, itemId: 'coins', quantity: 500 }],
      [{ slot: 0, itemId: 'coins', quantity: 1000 }, { slot: 5, itemId: 'feather', quantity: 40 }]);
    const before = await itemTotals(server.context.db, [a.id, b.id]);
    const tradeId = await openTrade(a, b);

    await addItem(tradeId, a, b, 0, 1);
    await addItem(tradeId, a, b, 1, 200);
    await addItem(tradeId, b, a, 0, 750);
    const update = await sendAndWait(b, 'tradeAddItem', { tradeId, inventorySlot: 5, quantity: 40 }, 'tradeUpdated');
    assert.deepEqual(update.data.myOffer.items.map((i: { itemId: string; quantity: number; tradeSlot: number }) => [i.tradeSlot, i.itemId, i.quantity]), [[0, 'coins', 750], [1, 'feather', 40]]);
    assert.equal(update.data.theirOffer.items[0].name, 'Bronze sword');
    assert.equal(update.data.theirOffer.items[0].value, 26);

    const confirmA = a.ws.next('tradeConfirmScreen');
    await bothAcceptScreen1(tradeId, a, b);
    const confirm = (await confirmA).data;
    assert.equal(confirm.values.myValue, 26 + 200);
    assert.equal(confirm.values.theirValue, 750 + 80);
    assert.equal(confirm.values.difference, 830 - 226);
    assert.equal(confirm.myOffer.accepted, false);

    const completedA = a.ws.next('tradeCompleted');
    const completedB = b.ws.next('tradeCompleted');
    const syncA = a.ws.next('player:sync', (d) => d.inventory.some((s: { itemId: string } | null) => s?.itemId === 'feather'));
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.screen === 'confirm' && d.theirOffer.accepted);
    b.ws.send('tradeAccept', { tradeId });
    const [doneA, doneB] = await Promise.all([completedA, completedB]);
    assert.deepEqual(doneA.data.receivedItems.sort((x: { itemId: string }, y: { itemId: string }) => x.itemId.localeCompare(y.itemId)), [{ itemId: 'coins', quantity: 750 }, { itemId: 'feather', quantity: 40 }]);
    assert.deepEqual(doneB.data.receivedItems.sort((x: { itemId: string }, y: { itemId: string }) => x.itemId.localeCompare(y.itemId)), [{ itemId: 'bronze_sword', quantity: 1 }, { itemId: 'coins', quantity: 200 }]);
    await syncA;
    const completedAt = a.ws.events.findIndex((e) => e.type === 'tradeCompleted');
    const syncAt = a.ws.events.findIndex((e, i) => i > completedAt && e.type === 'player:sync');
    assert.ok(completedAt >= 0 && syncAt > completedAt, 'player:sync follows tradeCompleted');

    assert.deepEqual(await itemTotals(server.context.db, [a.id, b.id]), before);
    const rowsA = await inventoryRows(server.context.db, a.id);
    const rowsB = await inventoryRows(server.context.db, b.id);
    assert.deepEqual(rowsA.map((r) => [r.item_id, r.quantity]).sort(), [['coins', 300 + 750], ['feather', 40]].sort());
    const sword = rowsB.find((r) => r.item_id === 'bronze_sword');
    assert.deepEqual(sword?.metadata, { crafter: 'Ava', charges: 3 }, 'metadata travels with the item');
    assert.deepEqual(rowsB.filter((r) => r.item_id === 'coins').map((r) => r.quantity), [250 + 200], 'received coins merge into the existing stack');

    const audit = await auditRow(server.context.db, tradeId);
    assert.equal(audit?.status, 'completed');
    assert.equal(audit?.initiator_id, a.id);
    assert.equal(audit?.partner_id, b.id);
    assert.deepEqual(audit?.initiator_items.map((i: { itemId: string; quantity: number }) => [i.itemId, i.quantity]), [['bronze_sword', 1], ['coins', 200]]);
    assert.deepEqual(audit?.initiator_items[0].metadata, { crafter: 'Ava', charges: 3 });
    assert.deepEqual(terminalEvents(a, tradeId), ['tradeCompleted']);
    assert.deepEqual(terminalEvents(b, tradeId), ['tradeCompleted']);

    // The interface is free again: moving works.
    const moved = await sendAndWait(a, 'player:move', { x: 119, z: 96 }, 'player:path');
    assert.equal(moved.data.path.length > 0, true);
    a.ws.close();
    b.ws.close();
  });

  it('any offer change by either side resets both accepts', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 100 }], [{ slot: 0, itemId: 'feather', quantity: 10 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 10);
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted === true);
    const resetForA = a.ws.next('tradeUpdated', (d) => d.myOffer.accepted === false && d.theirOffer.items.length === 1);
    await addItem(tradeId, b, a, 0, 1);
    const seen = (await resetForA).data;
    assert.equal(seen.myOffer.accepted, false);
    assert.equal(seen.theirOffer.accepted, false);
    // The accepting player's own change resets too.
    const echoed = Promise.all([a.ws.next('tradeUpdated', (d) => d.theirOffer.accepted === true), b.ws.next('tradeUpdated', (d) => d.myOffer.accepted === true)]);
    b.ws.send('tradeAccept', { tradeId });
    await echoed;
    const afterOwnChange = await sendAndWait(b, 'tradeAddItem', { tradeId, inventorySlot: 0, quantity: 1 }, 'tradeUpdated');
    assert.equal(afterOwnChange.data.myOffer.accepted, false);
    a.ws.close();
    b.ws.close();
  });

  it('the partner sees which entries were removed or reduced (anti-scam flag)', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 100 }, { slot: 1, itemId: 'iron_sword', quantity: 1 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 100);
    await addItem(tradeId, a, b, 1, 1);
    const flagged = b.ws.next('tradeUpdated', (d) => d.partnerRemoved.length > 0);
    const own = await sendAndWait(a, 'tradeRemoveItem', { tradeId, tradeSlot: 0, quantity: 60 }, 'tradeUpdated');
    assert.deepEqual(own.data.partnerRemoved, [], 'the remover is not warned about itself');
    const seen = (await flagged).data;
    assert.deepEqual(seen.partnerRemoved, [{ tradeSlot: 0, inventorySlot: 0, itemId: 'coins', name: 'Coins', quantity: 60, remaining: 40 }]);
    assert.equal(seen.theirOffer.items[0].quantity, 40);
    const gone = b.ws.next('tradeUpdated', (d) => d.partnerRemoved.length > 0);
    a.ws.send('tradeRemoveItem', { tradeId, tradeSlot: 1 });
    const removed = (await gone).data;
    assert.deepEqual(removed.partnerRemoved.map((r: { itemId: string; remaining: number }) => [r.itemId, r.remaining]), [['iron_sword', 0]]);
    assert.equal(removed.theirOffer.items.length, 1);
    a.ws.close();
    b.ws.close();
  });

  it('an add or remove on screen 2 returns both players to screen 1 with the change applied', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 100 }], [{ slot: 0, itemId: 'feather', quantity: 10 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 50);
    await bothAcceptScreen1(tradeId, a, b);
    const backForB = b.ws.next('tradeUpdated', (d) => d.screen === 'offer');
    const own = await sendAndWait(a, 'tradeAddItem', { tradeId, inventorySlot: 0, quantity: 1 }, 'tradeUpdated');
    assert.equal(own.data.screen, 'offer');
    const back = (await backForB).data;
    assert.equal(back.theirOffer.items[0].quantity, 51);
    assert.equal(back.myOffer.accepted || back.theirOffer.accepted, false);
    // Screen 1 again: both must accept twice more; a single accept does not complete anything.
    await bothAcceptScreen1(tradeId, a, b);
    const backAgain = a.ws.next('tradeUpdated', (d) => d.screen === 'offer');
    await sendAndWait(b, 'tradeAddItem', { tradeId, inventorySlot: 0, quantity: 2 }, 'tradeUpdated');
    assert.equal((await backAgain).data.theirOffer.items[0].quantity, 2);
    a.ws.send('tradeCancel', { tradeId });
    await b.ws.next('tradeCancelled');
    a.ws.close();
    b.ws.close();
  });

  it('re-validates at the swap: an offered item that vanished moves nothing, back to screen 1 with ITEM_CHANGED', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'steel_sword', quantity: 1 }, { slot: 1, itemId: 'coins', quantity: 10 }], [{ slot: 0, itemId: 'coins', quantity: 300 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 1);
    await addItem(tradeId, b, a, 0, 300);
    await bothAcceptScreen1(tradeId, a, b);
    // The sword disappears from the database behind the trade's back (another process, an admin fix…).
    await server.context.db.em.fork().execute('delete from inventory where character_id = ? and slot = 0', [a.id]);
    const before = { a: await inventoryRows(server.context.db, a.id), b: await inventoryRows(server.context.db, b.id) };
    const errorA = a.ws.next('tradeError');
    const errorB = b.ws.next('tradeError');
    const updateB = b.ws.next('tradeUpdated', (d) => d.screen === 'offer' && d.partnerRemoved.length > 0);
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted);
    b.ws.send('tradeAccept', { tradeId });
    assert.equal((await errorA).data.code, 'ITEM_CHANGED');
    assert.equal((await errorB).data.code, 'ITEM_CHANGED');
    assert.equal((await errorB).data.tradeId, tradeId);
    const update = (await updateB).data;
    assert.deepEqual(update.theirOffer.items, [], 'the vanished entry is dropped from the offer');
    assert.deepEqual(update.partnerRemoved.map((r: { itemId: string }) => r.itemId), ['steel_sword']);
    assert.deepEqual(await inventoryRows(server.context.db, a.id), before.a);
    assert.deepEqual(await inventoryRows(server.context.db, b.id), before.b);
    assert.equal(await auditRow(server.context.db, tradeId), undefined, 'no completed audit row');
    assert.deepEqual(terminalEvents(a, tradeId), []);
    a.ws.send('tradeCancel', { tradeId });
    await b.ws.next('tradeCancelled');
    a.ws.close();
    b.ws.close();
  });

  it('a receiver without space: INVENTORY_FULL, back to screen 1, nothing moved; freed slots count once', async () => {
    // b holds 28 items; it gives one (freeing a slot) and would receive two unstackables: no room.
    const full = Array.from({ length: 28 }, (_, slot) => ({ slot, itemId: 'logs', quantity: 1 }));
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'bronze_dagger', quantity: 1 }, { slot: 1, itemId: 'bronze_dagger', quantity: 1 }], full);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 1);
    await addItem(tradeId, a, b, 1, 1);
    await addItem(tradeId, b, a, 3, 1);
    await bothAcceptScreen1(tradeId, a, b);
    const totals = await itemTotals(server.context.db, [a.id, b.id]);
    const errorA = a.ws.next('tradeError');
    const errorB = b.ws.next('tradeError');
    const backA = a.ws.next('tradeUpdated', (d) => d.screen === 'offer');
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted);
    b.ws.send('tradeAccept', { tradeId });
    assert.equal((await errorA).data.code, 'INVENTORY_FULL');
    assert.equal((await errorB).data.code, 'INVENTORY_FULL');
    assert.equal((await errorB).data.playerId, b.id);
    assert.match((await errorB).data.message, /You do not have enough inventory space/);
    assert.equal((await backA).data.theirOffer.items.length, 1, 'offers stay as they were');
    assert.deepEqual(await itemTotals(server.context.db, [a.id, b.id]), totals);
    assert.equal((await inventoryRows(server.context.db, b.id)).length, 28);

    // Giving one and receiving one fits exactly: the slot b frees holds what it receives.
    await sendAndWait(a, 'tradeRemoveItem', { tradeId, tradeSlot: 1 }, 'tradeUpdated');
    await bothAcceptScreen1(tradeId, a, b);
    const done = b.ws.next('tradeCompleted');
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted);
    b.ws.send('tradeAccept', { tradeId });
    assert.deepEqual((await done).data.receivedItems, [{ itemId: 'bronze_dagger', quantity: 1 }]);
    const rows = await inventoryRows(server.context.db, b.id);
    assert.equal(rows.length, 28);
    assert.equal(rows.find((r) => r.slot === 3)?.item_id, 'bronze_dagger');
    a.ws.close();
    b.ws.close();
  });

  it('the double-accept race: many accepts at once on screen 2 swap exactly once', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 1000 }], [{ slot: 0, itemId: 'feather', quantity: 100 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 1000);
    await addItem(tradeId, b, a, 0, 100);
    await bothAcceptScreen1(tradeId, a, b);
    for (let i = 0; i < 5; i++) {
      a.ws.send('tradeAccept', { tradeId });
      b.ws.send('tradeAccept', { tradeId });
    }
    await Promise.all([a.ws.waitFor('tradeCompleted'), b.ws.waitFor('tradeCompleted')]);
    await sleep(300);
    assert.deepEqual(terminalEvents(a, tradeId), ['tradeCompleted']);
    assert.deepEqual(terminalEvents(b, tradeId), ['tradeCompleted']);
    assert.deepEqual((await inventoryRows(server.context.db, a.id)).map((r) => [r.item_id, r.quantity]), [['feather', 100]]);
    assert.deepEqual((await inventoryRows(server.context.db, b.id)).map((r) => [r.item_id, r.quantity]), [['coins', 1000]]);
    const audits = await server.context.db.em.fork().execute<Array<{ n: string }>>('select count(*) as n from trade_audit where id = ?', [tradeId]);
    assert.equal(Number(audits[0].n), 1);
    // Accepting an ended trade is refused.
    assert.equal(await refusal(a, 'tradeAccept', { tradeId }), 'TRADE_NOT_FOUND');
    a.ws.close();
    b.ws.close();
  });

  it('stackables merge into existing stacks; a stack that would pass 2^31-1 refuses the swap (STACK_LIMIT)', async () => {
    const max = 2_147_483_647;
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 10 }, { slot: 1, itemId: 'feather', quantity: 5 }], [{ slot: 4, itemId: 'coins', quantity: max - 5 }, { slot: 2, itemId: 'feather', quantity: 7 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 10);
    await bothAcceptScreen1(tradeId, a, b);
    const error = b.ws.next('tradeError');
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted);
    b.ws.send('tradeAccept', { tradeId });
    assert.equal((await error).data.code, 'STACK_LIMIT');
    assert.equal((await inventoryRows(server.context.db, b.id)).find((r) => r.item_id === 'coins')?.quantity, max - 5);

    await sendAndWait(a, 'tradeRemoveItem', { tradeId, tradeSlot: 0, quantity: 5 }, 'tradeUpdated');
    await addItem(tradeId, a, b, 1, 5);
    await bothAcceptScreen1(tradeId, a, b);
    const done = b.ws.next('tradeCompleted');
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted);
    b.ws.send('tradeAccept', { tradeId });
    await done;
    const rows = await inventoryRows(server.context.db, b.id);
    assert.deepEqual(rows.map((r) => [r.slot, r.item_id, r.quantity]), [[2, 'feather', 12], [4, 'coins', max]], 'merged into the existing stacks, no new slots');
    assert.deepEqual((await inventoryRows(server.context.db, a.id)).map((r) => [r.slot, r.item_id, r.quantity]), [[0, 'coins', 5]]);
    a.ws.close();
    b.ws.close();
  });

  it('an untradeable item that became part of an offer is refused again at the swap', async () => {
    // The offer is built from a tradeable item; then the slot is swapped in the database for an untradeable one.
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'bones', quantity: 1 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 1);
    await bothAcceptScreen1(tradeId, a, b);
    await putItems(server.context.db, a.id, [{ slot: 0, itemId: 'barrow_key', quantity: 1 }]);
    const error = a.ws.next('tradeError');
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted);
    b.ws.send('tradeAccept', { tradeId });
    assert.equal((await error).data.code, 'ITEM_CHANGED');
    assert.deepEqual((await inventoryRows(server.context.db, a.id)).map((r) => r.item_id), ['barrow_key']);
    assert.deepEqual(await inventoryRows(server.context.db, b.id), []);
    a.ws.send('tradeCancel', { tradeId });
    await b.ws.next('tradeCancelled');
    a.ws.close();
    b.ws.close();
  });

  it('a cancelled trade: tradeCancelled once to each, an audit row with the reason, the interface free again', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 5 }]);
    const tradeId = await openTrade(a, b);
    assert.equal((await sendAndWait(a, 'player:move', { x: 125, z: 96 }, 'error')).data.code, 'INTERFACE_BLOCKED');
    await addItem(tradeId, a, b, 0, 5);
    const cancelledA = a.ws.next('tradeCancelled');
    const cancelledB = b.ws.next('tradeCancelled');
    b.ws.send('tradeCancel', { tradeId });
    assert.deepEqual((await cancelledA).data, { tradeId, reason: 'cancelled', message: `${b.name} cancelled the trade` });
    await cancelledB;
    const audit = await eventually(() => auditRow(server.context.db, tradeId));
    assert.equal(audit.status, 'cancelled');
    assert.equal(audit.reason, 'cancelled');
    assert.deepEqual(audit.initiator_items.map((i: { itemId: string; quantity: number }) => [i.itemId, i.quantity]), [['coins', 5]]);
    await sleep(200);
    assert.deepEqual(terminalEvents(a, tradeId), ['tradeCancelled']);
    assert.deepEqual(terminalEvents(b, tradeId), ['tradeCancelled']);
    assert.ok((await sendAndWait(a, 'player:move', { x: 119, z: 96 }, 'player:path')).data.path.length > 0);
    a.ws.close();
    b.ws.close();
  });
});
