/**
 * SDK reconnection from a browser, which cannot put headers on a WebSocket (follow-up to issue #17 item 8): the
 * HTTP step of `client.reconnect(token)` (`POST /matchmake/reconnect/<roomId>`, which a browser sends with
 * `Authorization: Bearer`) verifies the token and authorises the room socket that follows to take the seat once
 * without credentials of its own.
 */
import assert from 'node:assert/strict';
import { matchMaker } from '@colyseus/core';
import { Client as SdkClient, type Room as SdkRoom } from '@colyseus/sdk';
import type { WorldRoom } from '../../rooms/WorldRoom.ts';
import { seed } from '../economy/support.ts';
import { anonymousAccount, createCharacterRow, dropSdkConnection, type TestAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';

type SeatReservation = Record<string, unknown> & { roomId: string; sessionId: string };
type Consumer = (response: SeatReservation, rootSchema?: unknown) => Promise<SdkRoom>;
interface SdkInternals {
  http: { options: { headers: Record<string, string> } };
  consumeSeatReservation: Consumer;
}

function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** An SDK client whose HTTP calls carry `headers` while its room sockets carry none, as in a browser. */
function browserSdk(server: TestServer, headers: Record<string, string> = {}): SdkClient {
  const client = new SdkClient(server.baseUrl, { headers });
  const internals = client as unknown as SdkInternals;
  const consume = internals.consumeSeatReservation.bind(client);
  // The SDK hands `http.options.headers` to the socket synchronously inside consumeSeatReservation.
  internals.consumeSeatReservation = (response, rootSchema) => {
    const kept = internals.http.options.headers;
    internals.http.options.headers = {};
    try {
      return consume(response, rootSchema);
    } finally {
      internals.http.options.headers = kept;
    }
  };
  return client;
}

/** Opens a room socket for `reservation` the way the SDK does, with exactly `headers` on the upgrade request. */
function socketFor(server: TestServer, reservation: SeatReservation, reconnectionToken: string, headers: Record<string, string> = {}): Promise<SdkRoom> {
  const client = new SdkClient(server.baseUrl, { headers }) as unknown as SdkInternals;
  return client.consumeSeatReservation({ ...reservation, reconnectionToken });
}

/** The HTTP step alone: `POST /matchmake/reconnect/<roomId>`. */
async function reconnectRequest(server: TestServer, token: string, credential: string | null): Promise<{ status: number; body: Record<string, unknown> }> {
  const [roomId, secret] = token.split(':');
  const response = await fetch(`${server.baseUrl}/matchmake/reconnect/${roomId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(credential ? bearer(credential) : {}) },
    body: JSON.stringify({ reconnectionToken: secret }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Joins with the Node SDK (headers on every channel) and drops the socket without a consented leave. Answers the
 * reconnection token and the seat as a reconnect request would reserve it.
 */
async function joinAndDrop(server: TestServer, account: TestAccount, characterId: string): Promise<{ token: string; seat: SeatReservation }> {
  const room = await new SdkClient(server.baseUrl, { headers: bearer(account.token) }).join('world', { characterId });
  room.onMessage('*', () => {});
  const token = room.reconnectionToken;
  const [listing] = await matchMaker.query({ roomId: room.roomId });
  const seat = { name: 'world', roomId: room.roomId, sessionId: room.sessionId, processId: listing!.processId };
  await dropSdkConnection(room);
  const world = matchMaker.getLocalRoomById(room.roomId) as unknown as WorldRoom;
  const held = world.checkReconnectionToken(token.split(':')[1]!);
  assert.ok(server.context.online.has(characterId) && held === room.sessionId,
    `the character keeps its seat (online: ${server.context.online.has(characterId)}, seat held for: ${held})`);
  return { token, seat };
}

describe('SDK reconnection from a browser (no headers on the socket) @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('client.reconnect: the HTTP step carries the token, the socket none, and the player is back with every coin', async () => {
    const owner = await anonymousAccount(server);
    const character = await createCharacterRow(server, owner.accountId, { x: 102, z: 100 });
    await seed(server.context.db, character.id, { inventory: [{ itemId: 'coins', quantity: 250 }] });
    const { token } = await joinAndDrop(server, owner, character.id);

    const again = await browserSdk(server, bearer(owner.token)).reconnect(token);
    again.onMessage('*', () => {});
    await until(() => again.state.players?.get(character.id)?.x === 102, 'the owner is back in place');
    const [row] = await server.context.db.em.fork().execute<Array<{ quantity: number }>>(
      "select quantity from inventory where character_id = ? and item_id = 'coins'", [character.id]);
    assert.equal(Number(row?.quantity), 250);
    await again.leave();
  });

  it('the HTTP step without a token, with a forged one, another account\'s or one bound to another character is refused and authorises nothing', async () => {
    const owner = await anonymousAccount(server);
    const other = await anonymousAccount(server);
    const character = await createCharacterRow(server, owner.accountId);
    const { token, seat } = await joinAndDrop(server, owner, character.id);

    // The owner's own token, but bound to another of the account's characters: it may not act as this one.
    const elsewhere = await createCharacterRow(server, owner.accountId);
    const boundElsewhere = server.context.auth.tokens.sign(
      { accountId: owner.accountId, roles: ['player'], scope: 'player', characterId: elsewhere.id }).token;
    const cases: Array<[string | null, number, string]> = [
      [null, 401, 'AUTH_REQUIRED'], ['not-a-token', 401, 'TOKEN_INVALID'], [other.token, 403, 'FORBIDDEN'], [boundElsewhere, 403, 'FORBIDDEN'],
    ];
    for (const [credential, status, code] of cases) {
      const answer = await reconnectRequest(server, token, credential);
      assert.equal(answer.status, status, `${code}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, code);
      assert.equal(answer.body.roomId, undefined, 'no seat reservation is handed out');
    }
    await assert.rejects(browserSdk(server).reconnect(token), /AUTH_REQUIRED/);
    await assert.rejects(browserSdk(server, bearer(other.token)).reconnect(token), /FORBIDDEN/);
    // Nothing was authorised: a socket without credentials presenting the seat is refused, and the seat waits.
    await assert.rejects(socketFor(server, seat, token.split(':')[1]!), /AUTH_REQUIRED/);

    const back = await browserSdk(server, bearer(owner.token)).reconnect(token);
    back.onMessage('*', () => {});
    await back.leave();
  });

  it('the authorisation serves one socket: the next one with the same seat needs its own HTTP step', async () => {
    const owner = await anonymousAccount(server);
    const character = await createCharacterRow(server, owner.accountId);
    const { token } = await joinAndDrop(server, owner, character.id);
    const secret = token.split(':')[1]!;

    const answer = await reconnectRequest(server, token, owner.token);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const reservation = answer.body as SeatReservation;
    // The first socket after the HTTP step uses the authorisation up (here it also presents a forged token, so it
    // is refused); the second, without credentials, finds none left.
    await assert.rejects(socketFor(server, reservation, secret, bearer('forged')), /TOKEN_INVALID/);
    await assert.rejects(socketFor(server, reservation, secret), /AUTH_REQUIRED/);
    assert.ok(server.context.online.has(character.id), 'the seat is still held for its owner');

    const fresh = await reconnectRequest(server, token, owner.token);
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    const room = await socketFor(server, fresh.body as SeatReservation, secret);
    room.onMessage('*', () => {});
    // Once taken, the seat is gone: another socket presenting it is refused.
    await assert.rejects(socketFor(server, fresh.body as SeatReservation, secret), /seat reservation expired/);
    await room.leave();
  });
});
