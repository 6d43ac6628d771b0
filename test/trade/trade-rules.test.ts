import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client as SdkClient } from '@colyseus/sdk';
import { matchMaker } from '@colyseus/core';
import type { WorldRoom } from '../../rooms/WorldRoom.ts';
import { User } from '../../src/db/entities/index.ts';
import { json } from '../helpers/http.ts';
import { anonymousAccount, createCharacterRow, sdkPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  addItem, auditRow, bothAcceptScreen1, eventually, inventoryRows, itemTotals, openTrade, putItems, refusal,
  sendAndWait, terminalEvents, trader, traderPair, type Trader,
} from './support.ts';

async function worldRoom(): Promise<WorldRoom> {
  const [listing] = await matchMaker.query({ name: 'world' });
  return matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom;
}

function closeAll(...traders: Trader[]): void {
  for (const t of traders) t.ws.close();
}

describe('trading: rules and refusals @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ADMIN_CODE: 'trade-admin-code' });
  });
  after(() => server?.close());

  it('refuses a self-trade, an unknown player, a busy player and a player too far away', async () => {
    const [a, b] = await traderPair(server);
    const far = await trader(server, { x: 124, z: 96 });
    assert.equal(await refusal(a, 'tradeRequest', { targetPlayerId: a.id }), 'SELF_TRADE');
    assert.equal(await refusal(a, 'tradeRequest', { targetPlayerId: 'nobody' }), 'PLAYER_NOT_FOUND');
    assert.equal(await refusal(a, 'tradeRequest', { targetPlayerId: far.id }), 'TOO_FAR');
    assert.equal(await refusal(a, 'tradeRequest', {}), 'INVALID_PAYLOAD');

    const tradeId = await openTrade(a, b);
    const third = await trader(server, { x: 121, z: 97 });
    assert.equal(await refusal(third, 'tradeRequest', { targetPlayerId: a.id }), 'PLAYER_BUSY');
    assert.equal(await refusal(a, 'tradeRequest', { targetPlayerId: third.id }), 'ALREADY_IN_TRADE');
    a.ws.send('tradeCancel', { tradeId });
    await b.ws.next('tradeCancelled');
    closeAll(a, b, far, third);
  });

  it('too far at acceptance and at an accept: TOO_FAR, nothing accepted', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 10 }]);
    const world = await worldRoom();
    const incoming = b.ws.next('tradeIncoming');
    a.ws.send('tradeRequest', { targetPlayerId: b.id });
    const { tradeId } = (await incoming).data;
    world.movePlayer(world.player(a.id)!, { x: 117, z: 96 });
    assert.equal(await refusal(b, 'tradeRequestRespond', { tradeId, accept: true }), 'TOO_FAR');
    world.movePlayer(world.player(a.id)!, { x: 119, z: 96 });
    const started = a.ws.next('tradeStarted');
    b.ws.send('tradeRequestRespond', { tradeId, accept: true });
    await started;
    await addItem(tradeId, a, b, 0, 10);
    world.movePlayer(world.player(b.id)!, { x: 122, z: 96 });
    assert.equal(await refusal(a, 'tradeAccept', { tradeId }), 'TOO_FAR');
    world.movePlayer(world.player(b.id)!, { x: 121, z: 96 });
    const accepted = await sendAndWait(a, 'tradeAccept', { tradeId }, 'tradeUpdated');
    assert.equal(accepted.data.myOffer.accepted, true);
    a.ws.send('tradeCancel', { tradeId });
    await b.ws.next('tradeCancelled');
    closeAll(a, b);
  });

  it('a repeated request to the same player within 3 s is RATE_LIMITED; a declined request ends with reason declined', async () => {
    const [a, b] = await traderPair(server);
    const incoming = b.ws.next('tradeIncoming');
    a.ws.send('tradeRequest', { targetPlayerId: b.id });
    const { tradeId } = (await incoming).data;
    assert.equal(await refusal(a, 'tradeRequest', { targetPlayerId: b.id }), 'RATE_LIMITED');
    // Only the requested player may answer.
    assert.equal(await refusal(a, 'tradeRequestRespond', { tradeId, accept: true }), 'NOT_PARTICIPANT');
    const declinedA = a.ws.next('tradeCancelled');
    const declinedB = b.ws.next('tradeCancelled');
    b.ws.send('tradeRequestRespond', { tradeId, accept: false });
    assert.equal((await declinedA).data.reason, 'declined');
    assert.equal((await declinedB).data.tradeId, tradeId);
    assert.equal((await eventually(() => auditRow(server.context.db, tradeId))).reason, 'declined');
    assert.equal(await refusal(b, 'tradeRequestRespond', { tradeId, accept: true }), 'TRADE_NOT_FOUND');
    closeAll(a, b);
  });

  it('refuses bad slots and quantities, untradeable items, a 29th entry, and keeps the offer unchanged', async () => {
    const items = [
      { slot: 0, itemId: 'coins', quantity: 10 },
      { slot: 1, itemId: 'barrow_key', quantity: 1 },
      { slot: 2, itemId: 'bronze_sword', quantity: 1 },
    ];
    const [a, b] = await traderPair(server, items);
    const tradeId = await openTrade(a, b);
    for (const inventorySlot of [28, -1, 1.5]) {
      assert.equal(await refusal(a, 'tradeAddItem', { tradeId, inventorySlot, quantity: 1 }), 'INVALID_SLOT', `slot ${inventorySlot}`);
    }
    assert.equal(await refusal(a, 'tradeAddItem', { tradeId, inventorySlot: '0', quantity: 1 }), 'INVALID_PAYLOAD');
    for (const quantity of [0, 0.5, -3, 11]) {
      assert.equal(await refusal(a, 'tradeAddItem', { tradeId, inventorySlot: 0, quantity }), quantity === 11 ? 'NOT_ENOUGH_ITEMS' : 'INVALID_QUANTITY', `quantity ${quantity}`);
    }
    assert.equal(await refusal(a, 'tradeAddItem', { tradeId, inventorySlot: 2, quantity: 2 }), 'NOT_ENOUGH_ITEMS');
    assert.equal(await refusal(a, 'tradeAddItem', { tradeId, inventorySlot: 1, quantity: 1 }), 'UNTRADEABLE');
    assert.equal(await refusal(a, 'tradeAddItem', { tradeId, inventorySlot: 5, quantity: 1 }), 'EMPTY_SLOT');
    // Offering the same slot twice cannot offer more than it holds (items the player does not own).
    await addItem(tradeId, a, b, 0, 6);
    assert.equal(await refusal(a, 'tradeAddItem', { tradeId, inventorySlot: 0, quantity: 5 }), 'NOT_ENOUGH_ITEMS');
    const merged = await sendAndWait(a, 'tradeAddItem', { tradeId, inventorySlot: 0, quantity: 4 }, 'tradeUpdated');
    assert.deepEqual(merged.data.myOffer.items.map((i: { quantity: number }) => i.quantity), [10]);
    for (const tradeSlot of [1, -1, 0.5]) assert.equal(await refusal(a, 'tradeRemoveItem', { tradeId, tradeSlot }), 'INVALID_TRADE_SLOT');
    for (const quantity of [0, 0.5]) assert.equal(await refusal(a, 'tradeRemoveItem', { tradeId, tradeSlot: 0, quantity }), 'INVALID_QUANTITY');
    assert.equal(await refusal(a, 'tradeRemoveItem', { tradeId, tradeSlot: 0, quantity: 11 }), 'NOT_ENOUGH_ITEMS');
    a.ws.send('tradeCancel', { tradeId });
    await b.ws.next('tradeCancelled');

    // A full window: 28 entries (one per inventory slot); a 29th add is refused and the offer stays at 28.
    const full = Array.from({ length: 28 }, (_, slot) => ({ slot, itemId: slot === 27 ? 'coins' : 'logs', quantity: slot === 27 ? 5 : 1 }));
    const [c, d] = await traderPair(server, full);
    const second = await openTrade(c, d);
    for (let slot = 0; slot < 28; slot++) await addItem(second, c, d, slot, slot === 27 ? 1 : 1);
    assert.equal(await refusal(c, 'tradeAddItem', { tradeId: second, inventorySlot: 28, quantity: 1 }), 'INVALID_SLOT');
    assert.equal(await refusal(c, 'tradeAddItem', { tradeId: second, inventorySlot: 3, quantity: 1 }), 'NOT_ENOUGH_ITEMS');
    const last = await sendAndWait(c, 'tradeAddItem', { tradeId: second, inventorySlot: 27, quantity: 4 }, 'tradeUpdated');
    assert.equal(last.data.myOffer.items.length, 28, 'more of an offered stack raises its entry, never a 29th');
    c.ws.send('tradeCancel', { tradeId: second });
    await d.ws.next('tradeCancelled');
    closeAll(a, b, c, d);
  });

  it('only participants act: a non-participant cancel/accept/add/remove is refused and the trade goes on', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 10 }]);
    const [c, d] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 10 }]);
    const tradeId = await openTrade(a, b);
    const other = await openTrade(c, d);
    await addItem(tradeId, a, b, 0, 10);
    const outsider = await trader(server, { x: 120, z: 97 }, [{ slot: 0, itemId: 'coins', quantity: 3 }]);
    for (const [type, data] of [
      ['tradeCancel', { tradeId }], ['tradeAccept', { tradeId }], ['tradeAddItem', { tradeId, inventorySlot: 0, quantity: 1 }],
      ['tradeRemoveItem', { tradeId, tradeSlot: 0 }],
    ] as const) {
      assert.equal(await refusal(outsider, type, data), 'NOT_PARTICIPANT', `outsider ${type}`);
      // A player of another trade, whose events go to its own TradeRoom.
      assert.equal(await refusal(c, type, data), 'NOT_PARTICIPANT', `other trader ${type}`);
    }
    assert.equal(await refusal(outsider, 'tradeCancel', { tradeId: 'made-up' }), 'TRADE_NOT_FOUND');

    // An SDK connection of an outsider cannot join the trade room; a client cannot create trade rooms.
    const roomId = a.ws.events.find((e) => e.type === 'tradeStarted')!.data.roomId;
    const outsiderSdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${outsider.account.token}` } });
    await assert.rejects(outsiderSdk.joinById(roomId), /NOT_PARTICIPANT|locked/);
    const otherSdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${c.account.token}` } });
    await assert.rejects(otherSdk.joinById(roomId), /NOT_PARTICIPANT|locked/);
    await assert.rejects(otherSdk.joinOrCreate('trade', { tradeId }), /FORBIDDEN|NOT_PARTICIPANT/);

    await sleep(100);
    assert.deepEqual(terminalEvents(a, tradeId), []);
    const update = await sendAndWait(a, 'tradeAccept', { tradeId }, 'tradeUpdated');
    assert.equal(update.data.theirOffer.accepted, false);
    assert.equal(update.data.myOffer.items.length, 1, 'the offer is as its owner left it');
    a.ws.send('tradeCancel', { tradeId });
    c.ws.send('tradeCancel', { tradeId: other });
    await Promise.all([b.ws.next('tradeCancelled'), d.ws.next('tradeCancelled')]);
    closeAll(a, b, c, d, outsider);
  });

  it('a disconnect cancels with reason disconnected; exactly one terminal event; the audit row says so', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 10 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 10);
    const cancelled = b.ws.next('tradeCancelled');
    a.ws.close();
    assert.equal((await cancelled).data.reason, 'disconnected');
    const audit = await eventually(() => auditRow(server.context.db, tradeId));
    assert.deepEqual([audit.status, audit.reason], ['cancelled', 'disconnected']);
    await sleep(200);
    assert.deepEqual(terminalEvents(b, tradeId), ['tradeCancelled']);
    assert.deepEqual((await inventoryRows(server.context.db, a.id)).map((r) => [r.item_id, r.quantity]), [['coins', 10]]);
    b.ws.close();
  });

  it('a death cancels with reason player_died (once to each player)', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 10 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 4);
    const world = await worldRoom();
    const cancelledA = a.ws.next('tradeCancelled');
    const cancelledB = b.ws.next('tradeCancelled');
    await world.notifyPlayerDied(world.player(b.id)!);
    assert.equal((await cancelledA).data.reason, 'player_died');
    assert.equal((await cancelledB).data.reason, 'player_died');
    await sleep(200);
    assert.deepEqual(terminalEvents(a, tradeId), ['tradeCancelled']);
    assert.deepEqual(terminalEvents(b, tradeId), ['tradeCancelled']);
    assert.equal(world.player(a.id)!.lock, undefined);
    closeAll(a, b);
  });

  it('a death while the swap runs waits for it: the trade completes once and nothing is duplicated', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 70 }], [{ slot: 0, itemId: 'feather', quantity: 7 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 70);
    await addItem(tradeId, b, a, 0, 7);
    await bothAcceptScreen1(tradeId, a, b);
    const world = await worldRoom();
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted);
    const terminal = eventually(async () => (terminalEvents(a, tradeId).length > 0 && terminalEvents(b, tradeId).length > 0 ? true : undefined));
    b.ws.send('tradeAccept', { tradeId });
    await world.notifyPlayerDied(world.player(a.id)!);
    await terminal;
    await sleep(200);
    const kinds = [...terminalEvents(a, tradeId), ...terminalEvents(b, tradeId)];
    assert.equal(kinds.length, 2, 'one terminal event per player');
    assert.equal(new Set(kinds).size, 1, 'both players see the same outcome');
    assert.deepEqual(await itemTotals(server.context.db, [a.id, b.id]), { coins: 70, feather: 7 });
    closeAll(a, b);
  });

  it('an SDK player trades with a /ws player: schema state, the same events, the swap', async () => {
    const sdkAccount = await anonymousAccount(server);
    const sdkCharacter = await createCharacterRow(server, sdkAccount.accountId, { x: 120, z: 96 });
    await putItems(server.context.db, sdkCharacter.id, [{ slot: 0, itemId: 'iron_sword', quantity: 1, metadata: { engraving: 'S' } }]);
    const world = await sdkPlayer(server, sdkAccount, sdkCharacter.id);
    const worldEvents: Array<{ type: string; data: any }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    world.onMessage('*', (type, data) => worldEvents.push({ type: String(type), data }));
    const jsonSide = await trader(server, { x: 121, z: 96 }, [{ slot: 0, itemId: 'coins', quantity: 91 }]);

    const incoming = jsonSide.ws.next('tradeIncoming', (d) => d.fromPlayerId === sdkCharacter.id);
    world.send('tradeRequest', { targetPlayerId: jsonSide.id });
    const { tradeId } = (await incoming).data;
    jsonSide.ws.send('tradeRequestRespond', { tradeId, accept: true });
    await eventually(async () => worldEvents.find((e) => e.type === 'tradeStarted'));
    const started = worldEvents.find((e) => e.type === 'tradeStarted')!.data;
    assert.deepEqual([started.tradeId, started.partnerId, started.partnerName], [tradeId, jsonSide.id, jsonSide.name]);

    const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${sdkAccount.token}` } });
    const room = await sdk.joinById(started.roomId);
    const tradeEvents: Array<{ type: string; data: any }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    room.onMessage('*', (type, data) => tradeEvents.push({ type: String(type), data }));
    const sdkSees = (type: string, match: (d: any) => boolean = () => true) => eventually(async () => tradeEvents.find((e) => e.type === type && match(e.data))); // eslint-disable-line @typescript-eslint/no-explicit-any

    room.send('tradeAddItem', { tradeId, inventorySlot: 0, quantity: 1 });
    await jsonSide.ws.next('tradeUpdated', (d) => d.theirOffer.items.length === 1);
    await sendAndWait(jsonSide, 'tradeAddItem', { tradeId, inventorySlot: 0, quantity: 91 }, 'tradeUpdated');
    await eventually(async () => ((room.state as any).sides?.get(jsonSide.id)?.items?.length === 1 ? true : undefined)); // eslint-disable-line @typescript-eslint/no-explicit-any
    const state = room.state as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(state.tradeId, tradeId);
    assert.equal(state.screen, 'offer');
    assert.equal(state.sides.get(jsonSide.id).items[0].itemId, 'coins');
    assert.equal(state.sides.get(sdkCharacter.id).items[0].name, 'Iron sword');
    const bad = tradeEvents.length;
    room.send('tradeAddItem', { tradeId, inventorySlot: 0.5, quantity: 1 });
    const error = await eventually(async () => tradeEvents.slice(bad).find((e) => e.type === 'tradeError'));
    assert.equal(error.data.code, 'INVALID_SLOT');

    room.send('tradeAccept', { tradeId });
    await jsonSide.ws.next('tradeUpdated', (d) => d.theirOffer.accepted);
    jsonSide.ws.send('tradeAccept', { tradeId });
    await sdkSees('tradeConfirmScreen');
    // Messages go out at once, state patches at the patch interval: the screen change may land a little later.
    await eventually(async () => (state.screen === 'confirm' ? true : undefined));
    room.send('tradeAccept', { tradeId });
    await jsonSide.ws.next('tradeUpdated', (d) => d.screen === 'confirm' && d.theirOffer.accepted);
    jsonSide.ws.send('tradeAccept', { tradeId });
    const completed = await sdkSees('tradeCompleted');
    assert.deepEqual(completed.data.receivedItems, [{ itemId: 'coins', quantity: 91 }]);
    assert.deepEqual((await jsonSide.ws.waitFor('tradeCompleted')).data.receivedItems, [{ itemId: 'iron_sword', quantity: 1 }]);
    await eventually(async () => worldEvents.find((e) => e.type === 'player:sync' && e.data.inventory.some((s: { itemId: string } | null) => s?.itemId === 'coins')));
    assert.deepEqual((await inventoryRows(server.context.db, jsonSide.id)).map((r) => [r.item_id, r.metadata]), [['iron_sword', { engraving: 'S' }]]);
    assert.equal(tradeEvents.filter((e) => e.type === 'tradeCompleted').length + worldEvents.filter((e) => e.type === 'tradeCompleted').length, 1);
    await world.leave();
    jsonSide.ws.close();
  });

  it('GET /api/admin/trades is for admins only and lists a character\'s trades', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 3 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 3);
    await bothAcceptScreen1(tradeId, a, b);
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted);
    b.ws.send('tradeAccept', { tradeId });
    await b.ws.waitFor('tradeCompleted');
    const url = `${server.baseUrl}/api/admin/trades?characterId=${encodeURIComponent(a.id)}`;
    assert.equal((await fetch(url)).status, 401);
    assert.equal((await fetch(url, { headers: { Authorization: `Bearer ${a.account.token}` } })).status, 403);
    // The account must hold the role too (an operator grants it; accountChanged applies it at once).
    await server.context.db.em.fork().nativeUpdate(User, { id: a.account.accountId }, { roles: ['player', 'admin'] });
    await server.context.auth.sessions.accountChanged(a.account.accountId);
    const admin = server.context.auth.tokens.sign({ accountId: a.account.accountId, roles: ['player', 'admin'], scope: 'player' });
    const response = await fetch(url, { headers: { Authorization: `Bearer ${admin.token}` } });
    assert.equal(response.status, 200);
    const body = await json(response);
    const row = body.trades.find((t: { id: string }) => t.id === tradeId);
    assert.equal(row.status, 'completed');
    assert.deepEqual(row.initiatorItems.map((i: { itemId: string; quantity: number }) => [i.itemId, i.quantity]), [['coins', 3]]);
    assert.deepEqual(row.partnerItems, []);
    assert.equal((await fetch(`${server.baseUrl}/api/admin/trades?limit=0`, { headers: { Authorization: `Bearer ${admin.token}` } })).status, 400);
    closeAll(a, b);
  });
});

describe('trading: timeouts @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ TRADE_REQUEST_TIMEOUT_MS: '300', TRADE_IDLE_TIMEOUT_MS: '600' });
  });
  after(() => server?.close());

  it('an unanswered request expires (request_expired to both, then TRADE_NOT_FOUND)', async () => {
    const [a, b] = await traderPair(server);
    const incoming = b.ws.next('tradeIncoming');
    a.ws.send('tradeRequest', { targetPlayerId: b.id });
    const { tradeId } = (await incoming).data;
    const [ea, eb] = await Promise.all([a.ws.next('tradeCancelled'), b.ws.next('tradeCancelled')]);
    assert.deepEqual([ea.data.tradeId, ea.data.reason, eb.data.reason], [tradeId, 'request_expired', 'request_expired']);
    assert.equal(await refusal(b, 'tradeRequestRespond', { tradeId, accept: true }), 'TRADE_NOT_FOUND');
    closeAll(a, b);
  });

  it('an idle trade is cancelled (idle_timeout) and frees both players', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 5 }]);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 5);
    const [ea] = await Promise.all([a.ws.next('tradeCancelled', () => true, 5_000), b.ws.next('tradeCancelled', () => true, 5_000)]);
    assert.equal(ea.data.reason, 'idle_timeout');
    assert.deepEqual(await itemTotals(server.context.db, [a.id, b.id]), { coins: 5 });
    assert.ok((await sendAndWait(a, 'player:move', { x: 119, z: 96 }, 'player:path')).data.path.length > 0);
    closeAll(a, b);
  });
});
