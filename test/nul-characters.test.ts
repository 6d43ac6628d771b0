import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { matchMaker } from '@colyseus/core';
import type { Room as SdkRoom } from '@colyseus/sdk';
import type { WorldRoom } from '../rooms/WorldRoom.ts';
import { json } from './helpers/http.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer, sdkPlayer, type TestAccount } from './helpers/players.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { findNulCharacter } from '../src/nul-characters.ts';
import { JsonWsClient } from './helpers/ws-client.ts';

const NUL = '\u0000';
const SOCIAL_EVENTS = ['friend:request', 'friend:accept', 'friend:decline', 'friend:remove', 'ignore:add', 'ignore:remove'];
/** Every client → server event name the protocol documents (plus the /ws connection's own events). */
const DOCUMENTED_EVENTS = [...new Set([
  'authenticate',
  ...fs.readFileSync(path.join(import.meta.dirname, '../docs/protocol.md'), 'utf8').match(/`(?:[a-z]+:[a-zA-Z]+|trade[A-Z][a-zA-Z]*)`/g)!
    .map((name) => name.slice(1, -1)),
])];
/** Payloads with a NUL somewhere: in the usual id and name fields, nested, in an array, in a key. */
const NUL_PAYLOADS: Array<Record<string, unknown>> = [
  ...['characterId', 'name', 'targetPlayerId', 'tradeId', 'message', 'itemId', 'storeId', 'npcId', 'targetId', 'token', 'toName', 'prayerId']
    .map((field) => ({ [field]: `a${NUL}b` })),
  { characterId: NUL },
  { createCharacter: { name: `Ava${NUL}` } },
  { items: [{ itemId: 'logs' }, { itemId: `logs${NUL}` }] },
  { [`key${NUL}`]: 1 },
];

function invalidPayload(data: { code?: unknown }, what: string): void {
  assert.equal(data.code, 'INVALID_PAYLOAD', `${what}: ${JSON.stringify(data)}`);
}

describe('NUL characters are refused at every edge, never a server fault @db', function () {
  this.timeout(120_000);
  let server: TestServer;
  let account: TestAccount;
  let characterId: string;

  before(async () => {
    // The sweep sends a few hundred events per connection: above the per-connection message limit.
    server = await startTestServer({ WS_MESSAGES_PER_SECOND: '100000' });
    account = await anonymousAccount(server);
    characterId = (await createCharacterRow(server, account.accountId, { x: 120, z: 96 })).id;
  });
  after(() => server?.close());

  async function api(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const response = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: { Authorization: `Bearer ${account.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await json(response) };
  }

  it('REST: a NUL in a body, a path parameter or a query is 400 VALIDATION_FAILED naming where', async () => {
    const agent = await api('POST', '/api/agent', { characterId, name: `bot${NUL}` });
    assert.equal(agent.status, 400, JSON.stringify(agent.body));
    assert.equal(agent.body.code, 'VALIDATION_FAILED');
    assert.deepEqual(agent.body.errors, [{ in: 'body', path: 'name', message: 'must not contain the NUL character (U+0000)' }]);

    const token = await api('POST', '/api/auth/character-token', { characterId: `${characterId}${NUL}` });
    assert.deepEqual([token.status, token.body.code, token.body.errors[0].path], [400, 'VALIDATION_FAILED', 'characterId']);

    const created = await api('POST', '/api/character', { name: `Ava${NUL}` });
    assert.deepEqual([created.status, created.body.code], [400, 'VALIDATION_FAILED']);
    const byPath = await api('GET', `/api/agent/abc%00def`);
    assert.deepEqual([byPath.status, byPath.body.code, byPath.body.errors[0].in], [400, 'VALIDATION_FAILED', 'path']);
    const byQuery = await api('GET', `/api/agent?includeRevoked=true%00`);
    assert.deepEqual([byQuery.status, byQuery.body.code, byQuery.body.errors[0].in], [400, 'VALIDATION_FAILED', 'query']);

    // Nothing was written, and clean requests still work.
    const agents = await api('GET', '/api/agent');
    assert.equal(agents.status, 200);
    assert.equal(agents.body.items.length, 0);
    assert.equal((await api('POST', '/api/auth/character-token', { characterId })).status, 200);
  });

  it('/ws: social events, authenticate and world:enter with a NUL answer INVALID_PAYLOAD; the socket stays usable', async () => {
    const fresh = await JsonWsClient.connect(server.wsUrl);
    fresh.send('authenticate', { token: `${account.token}${NUL}` });
    invalidPayload((await fresh.next('error')).data, 'authenticate');
    fresh.send('authenticate', { token: account.token });
    assert.equal((await fresh.next('authResult')).data.success, true);
    fresh.send('world:enter', { characterId: `${characterId}${NUL}` });
    invalidPayload((await fresh.next('error')).data, 'world:enter');
    fresh.send('world:enter', { createCharacter: { name: `Ava${NUL}` } });
    invalidPayload((await fresh.next('error')).data, 'world:enter createCharacter');
    fresh.send('world:enter', { characterId });
    await fresh.next('world:joined');

    for (const type of SOCIAL_EVENTS) {
      for (const ref of [{ characterId: NUL }, { characterId: `a${NUL}b` }, { name: `Bob${NUL}` }]) {
        fresh.send(type, ref);
        invalidPayload((await fresh.next('error')).data, `${type} ${JSON.stringify(ref)}`);
      }
    }
    fresh.send('friend:request', { name: 'nobody-here' });
    assert.notEqual((await fresh.next('error')).data.code, 'INVALID_PAYLOAD', 'a clean request reaches the handler');
    fresh.close();
    await fresh.closed;
  });

  it('sweep: every documented event with a NUL anywhere, over /ws and the SDK, answers INVALID_PAYLOAD and changes nothing', async () => {
    const other = await anonymousAccount(server);
    const sdkCharacter = await createCharacterRow(server, other.accountId, { x: 121, z: 96 });
    const wsCharacter = await createCharacterRow(server, other.accountId, { x: 119, z: 96 });
    const ws = await jsonPlayer(server, other, wsCharacter.id);
    const room: SdkRoom = await sdkPlayer(server, other, sdkCharacter.id);
    const sdkErrors: Array<Record<string, unknown>> = [];
    room.onMessage('*', (type, data) => {
      if (type === 'error' || type === 'tradeError') sdkErrors.push(data as Record<string, unknown>);
    });
    const [listing] = await matchMaker.query({ name: 'world' });
    const world = matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom;
    const sdkEvents = DOCUMENTED_EVENTS.filter((type) => world.handles(type));
    assert.ok(sdkEvents.length >= 30, `the world handles the documented events (${sdkEvents.length})`);
    const before = await server.context.db.em.fork().execute('select count(*)::int as n from friendships');

    let sent = 0;
    for (const type of DOCUMENTED_EVENTS) {
      for (const payload of NUL_PAYLOADS) {
        ws.send(type, payload);
        invalidPayload((await ws.next('error')).data, `/ws ${type} ${JSON.stringify(payload)}`);
        if (!sdkEvents.includes(type)) continue;
        const seen = sdkErrors.length;
        // Paced below Colyseus' own flood cut-off (200 messages a second per SDK client).
        await new Promise((resolve) => setTimeout(resolve, 8));
        room.send(type, payload);
        const deadline = Date.now() + 5_000;
        while (sdkErrors.length === seen && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
        assert.ok(sdkErrors.length > seen, `SDK ${type}: no answer`);
        invalidPayload(sdkErrors[seen], `SDK ${type} ${JSON.stringify(payload)}`);
        sent++;
      }
    }
    assert.ok(sent > 0);
    assert.ok(!ws.events.some((e) => e.data?.code === 'INTERNAL_ERROR'));
    assert.deepEqual(await server.context.db.em.fork().execute('select count(*)::int as n from friendships'), before);
    ws.send('player:move', { x: 119, z: 97 });
    await ws.next('world:update');
    await room.leave();
    ws.close();
  });
});

describe('findNulCharacter', () => {
  it('names where the first NUL is: the value itself, a nested field, an array item or a key', () => {
    assert.equal(findNulCharacter(`a${NUL}`), '');
    assert.equal(findNulCharacter({ a: { b: [1, 'x', `y${NUL}`] } }), 'a.b.2');
    assert.equal(findNulCharacter({ first: 'ok', second: { [`k${NUL}`]: 1 } }), 'second.k\\u0000');
    assert.equal(findNulCharacter([{ fine: 'x' }, { name: `A${NUL}` }]), '1.name');
  });

  it('finds none in values without one (numbers, booleans, null, empty containers, plain strings)', () => {
    for (const value of [1, true, null, undefined, '', 'text', [], {}, { x: 3, z: 4 }, { path: [{ x: 1 }], run: false }]) {
      assert.equal(findNulCharacter(value), undefined, JSON.stringify(value));
    }
  });
});
