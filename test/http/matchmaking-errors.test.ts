import assert from 'node:assert/strict';
import { matchMaker } from '@colyseus/core';
import { Client as SdkClient, MatchMakeError } from '@colyseus/sdk';
import { anonymousAccount, type TestAccount } from '../helpers/players.ts';
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
