import assert from 'node:assert/strict';
import { matchMaker } from '@colyseus/core';
import { Client as SdkClient, MatchMakeError } from '@colyseus/sdk';
import { anonymousAccount, createCharacterRow, type TestAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { openTrade, traderPair } from '../trade/support.ts';

interface Answer {
  status: number;
  type: string | null;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('matchmaking refusals are 4xx problem details with stable codes @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  let account: TestAccount;

  before(async () => {
    server = await startTestServer();
    account = await anonymousAccount(server);
  });
  after(() => server?.close());

  async function matchmake(path: string, body: string, token: string | null): Promise<Answer> {
    const response = await fetch(`${server.baseUrl}/matchmake/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body,
    });
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type'), body: text ? JSON.parse(text) : {} };
  }

  function assertProblem(answer: Answer, status: number, code: string, what: string): void {
    assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
    assert.match(answer.type ?? '', /^application\/problem\+json/, what);
    assert.equal(answer.body.code, code, what);
    assert.equal(answer.body.status, status, what);
    assert.equal(typeof answer.body.detail, 'string', what);
    assert.equal(answer.body.type, `/docs/errors.md#${code.toLowerCase().replaceAll('_', '-')}`, what);
    // The Colyseus SDK reads `error` as the message of the MatchMakeError it rejects with.
    assert.ok(answer.body.error.startsWith(`${code}: `), what);
  }

  it('unknown rooms, room types, methods and malformed requests', async () => {
    const [world] = await matchMaker.query({ name: 'world' });
    const cases: Array<[string, string, number, string, string | null]> = [
      ['joinById/no-such-room', '{}', 404, 'ROOM_NOT_FOUND', account.token],
      ['joinById/no-such-room', '{}', 404, 'ROOM_NOT_FOUND', null],
      ['joinOrCreate/no-such-type', '{}', 404, 'UNKNOWN_ROOM_TYPE', account.token],
      ['join/no-such-type', '{}', 404, 'UNKNOWN_ROOM_TYPE', account.token],
      ['join/world', '{}', 400, 'INVALID_REQUEST', account.token],
      ['join/world', '[1, 2]', 400, 'INVALID_REQUEST', account.token],
      ['join/world', 'null', 400, 'INVALID_REQUEST', account.token],
      ['join/world', '"a string"', 400, 'INVALID_REQUEST', account.token],
      ['join/world', '{"characterId": 7', 400, 'MALFORMED_JSON', account.token],
      ['join/world', '{}', 401, 'AUTH_REQUIRED', null],
      ['join/world', '{"characterId": "a\\u0000b"}', 400, 'INVALID_PAYLOAD', account.token],
      ['join/world', '{"createCharacter": {"name": "Ava\\u0000"}}', 400, 'INVALID_PAYLOAD', account.token],
      ['create/world', '{}', 403, 'FORBIDDEN', account.token],
      ['nosuchmethod/world', '{}', 403, 'FORBIDDEN', account.token],
      ['reconnect/world', '{}', 400, 'INVALID_REQUEST', account.token],
      ['reconnect/no-such-room', '{"reconnectionToken": "abc:def"}', 404, 'ROOM_NOT_FOUND', account.token],
      [`reconnect/${world.roomId}`, '{"reconnectionToken": 42}', 400, 'INVALID_REQUEST', account.token],
      [`reconnect/${world.roomId}`, JSON.stringify({ reconnectionToken: 'x'.repeat(200) }), 400, 'INVALID_REQUEST', account.token],
      [`reconnect/${world.roomId}`, '{"reconnectionToken": "nosuchsession"}', 410, 'RECONNECTION_EXPIRED', account.token],
      ['reconnect/nosuchroom', '{"reconnectionToken": "nosuchsession"}', 404, 'ROOM_NOT_FOUND', account.token],
    ];
    for (const [path, body, status, code, token] of cases) {
      assertProblem(await matchmake(path, body, token), status, code, `${path} ${body}`);
    }
  });

  it('a body over the JSON body limit (100 KB) is a 413 PAYLOAD_TOO_LARGE, declared or streamed, and joins nobody', async () => {
    const character = await createCharacterRow(server, account.accountId);
    const padded = (bytes: number) => JSON.stringify({ characterId: character.id, padding: 'x'.repeat(bytes) });
    assertProblem(await matchmake('join/world', padded(2 * 1024 * 1024), account.token), 413, 'PAYLOAD_TOO_LARGE', '2 MB');
    assertProblem(await matchmake('join/world', padded(101 * 1024), account.token), 413, 'PAYLOAD_TOO_LARGE', '101 KB');

    // Chunked, without a content-length: counted while it streams.
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const streamed = await fetch(`${server.baseUrl}/matchmake/join/world`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: `Bearer ${account.token}` },
      body: new ReadableStream({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode(`{"characterId": "${character.id}", "padding": "`));
          if (sent++ < 32) controller.enqueue(chunk);
          else controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    const streamedBody = (await streamed.json()) as Answer['body'];
    assertProblem({ status: streamed.status, type: streamed.headers.get('content-type'), body: streamedBody }, 413, 'PAYLOAD_TOO_LARGE', 'chunked');
    assert.equal(server.context.online.has(character.id), false, 'nobody joined');

    // Under the limit the body reaches the matchmaker as before (an unknown option is ignored).
    const response = await fetch(`${server.baseUrl}/matchmake/join/world`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: `Bearer ${account.token}` },
      body: padded(60 * 1024),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const reservation = (await response.json()) as { roomId: string; sessionId: string };
    assert.equal(typeof reservation.sessionId, 'string');
  });

  it('a trade room: an outsider, a participant joining again, a client creating one', async () => {
    const [a, b] = await traderPair(server);
    const tradeId = await openTrade(a, b);
    const roomId = a.ws.events.find((e) => e.type === 'tradeStarted')!.data.roomId;
    const outsider = await anonymousAccount(server);

    assertProblem(await matchmake(`joinById/${roomId}`, '{}', outsider.token), 409, 'ROOM_LOCKED', 'outsider joinById');
    assertProblem(await matchmake(`joinById/${roomId}`, '{}', a.account.token), 409, 'ROOM_LOCKED', 'participant joinById again');
    assertProblem(await matchmake('join/trade', '{}', outsider.token), 403, 'NOT_PARTICIPANT', 'outsider join');
    assertProblem(await matchmake('joinOrCreate/trade', JSON.stringify({ tradeId }), outsider.token), 403, 'NOT_PARTICIPANT', 'outsider joinOrCreate');
    assertProblem(await matchmake('joinOrCreate/trade', JSON.stringify({ tradeId }), a.account.token), 403, 'FORBIDDEN', 'participant creates');
    assertProblem(await matchmake('join/trade', '{}', a.account.token), 404, 'ROOM_NOT_FOUND', 'participant join (the room is private)');

    // The SDK still rejects with the code in its message and the HTTP status as its code.
    const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${outsider.token}` } });
    const refused = await sdk.joinById(roomId).then(() => undefined, (error: unknown) => error);
    assert.ok(refused instanceof MatchMakeError, String(refused));
    assert.equal(refused.code, 409);
    assert.match(refused.message, /^ROOM_LOCKED: /);
    const unknown = await sdk.joinById('no-such-room').then(() => undefined, (error: unknown) => error);
    assert.ok(unknown instanceof MatchMakeError);
    assert.deepEqual([unknown.code, unknown.message.split(':')[0]], [404, 'ROOM_NOT_FOUND']);

    a.ws.send('tradeCancel', { tradeId });
    await b.ws.next('tradeCancelled');
    a.ws.close();
    b.ws.close();
  });
});
