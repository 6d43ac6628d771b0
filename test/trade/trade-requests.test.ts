import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { matchMaker } from '@colyseus/core';
import type { WorldRoom } from '../../rooms/WorldRoom.ts';
import { anonymousAccount, createCharacterRow, dropSdkConnection, sdkPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { auditRow, eventually, openTrade, refusal, terminalEvents, trader, traderPair, type Trader } from './support.ts';

async function worldRoom(): Promise<WorldRoom> {
  const [listing] = await matchMaker.query({ name: 'world' });
  return matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom;
}

/** a asks b; resolves with the request's trade id once b saw tradeIncoming. */
async function requestTrade(a: Trader, b: Trader): Promise<string> {
  const incoming = b.ws.next('tradeIncoming', (d) => d.fromPlayerId === a.id);
  a.ws.send('tradeRequest', { targetPlayerId: b.id });
  return (await incoming).data.tradeId;
}

describe('trading: pending requests and dropped connections @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('a requester whose socket closes: the target is told at once, accepting starts nothing, the target stays free', async () => {
    const [a, b] = await traderPair(server);
    const c = await trader(server, { x: 121, z: 97 });
    const tradeId = await requestTrade(a, b);
    const cancelled = b.ws.next('tradeCancelled', (d) => d.tradeId === tradeId);
    a.ws.close();
    const { data } = await cancelled;
    assert.deepEqual([data.reason, typeof data.message], ['disconnected', 'string']);
    const world = await worldRoom();
    assert.ok(world.player(a.id), 'the world still holds the requester\'s seat for a reconnection');

    assert.equal(await refusal(b, 'tradeRequestRespond', { tradeId, accept: true }), 'TRADE_NOT_FOUND');
    assert.ok(!b.ws.events.some((e) => e.type === 'tradeStarted'), 'no trade with the absent requester');
    assert.equal(world.player(b.id)!.lock, undefined, 'the target\'s interface is not blocked');
    const audit = await eventually(() => auditRow(server.context.db, tradeId));
    assert.deepEqual([audit.status, audit.reason], ['cancelled', 'disconnected']);
    await sleep(100);
    assert.deepEqual(terminalEvents(b, tradeId), ['tradeCancelled'], 'exactly one terminal event');

    // The target trades with someone else straight away.
    const next = await openTrade(b, c);
    c.ws.send('tradeCancel', { tradeId: next });
    await b.ws.next('tradeCancelled', (d) => d.tradeId === next);
    b.ws.close();
    c.ws.close();
  });

  it('a target whose socket closes: the requester is told; a dropped player cannot be asked until it reconnects', async () => {
    const [a, b] = await traderPair(server);
    const c = await trader(server, { x: 121, z: 97 });
    const tradeId = await requestTrade(a, b);
    const cancelled = a.ws.next('tradeCancelled', (d) => d.tradeId === tradeId);
    const reconnectionToken = b.ws.events.find((e) => e.type === 'world:joined')!.data.reconnectionToken;
    b.ws.close();
    assert.equal((await cancelled).data.reason, 'disconnected');
    await sleep(50);
    assert.equal(await refusal(c, 'tradeRequest', { targetPlayerId: b.id }), 'PLAYER_NOT_FOUND');
    assert.equal(await refusal(a, 'tradeRequestRespond', { tradeId, accept: true }), 'TRADE_NOT_FOUND');

    const back = await JsonWsClient.connect(server.wsUrl);
    back.send('authenticate', { token: b.account.token, reconnectionToken });
    await back.waitFor('player:sync');
    const b2: Trader = { ...b, ws: back };
    const again = await openTrade(c, b2);
    b2.ws.send('tradeCancel', { tradeId: again });
    await c.ws.next('tradeCancelled', (d) => d.tradeId === again);
    for (const t of [a, b2, c]) t.ws.close();
  });

  it('an SDK player whose world connection drops before it joined the trade room: the trade is cancelled at once', async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, { x: 120, z: 96 });
    const room = await sdkPlayer(server, account, character.id);
    const messages: Array<{ type: string; data: any }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    room.onMessage('*', (type, data) => messages.push({ type: String(type), data }));
    const b = await trader(server, { x: 121, z: 96 });
    const incoming = b.ws.next('tradeIncoming', (d) => d.fromPlayerId === character.id);
    room.send('tradeRequest', { targetPlayerId: b.id });
    const { tradeId } = (await incoming).data;
    const started = b.ws.next('tradeStarted', (d) => d.tradeId === tradeId);
    b.ws.send('tradeRequestRespond', { tradeId, accept: true });
    await started;
    await eventually(async () => (messages.some((m) => m.type === 'tradeStarted') ? true : undefined));

    const cancelled = b.ws.next('tradeCancelled', (d) => d.tradeId === tradeId);
    await dropSdkConnection(room);
    assert.equal((await cancelled).data.reason, 'disconnected');
    const world = await worldRoom();
    assert.ok(world.player(character.id), 'the seat is still held');
    assert.equal(world.player(b.id)!.lock, undefined, 'the partner is free again');
    b.ws.close();
  });
});
