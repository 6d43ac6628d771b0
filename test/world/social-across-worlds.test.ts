/**
 * Social across worlds (#19 items 5 and 6, one process, two standing worlds): friends lists name the world a friend
 * is in, entering and leaving a world is pushed to friends in every world, private messages cross worlds both ways
 * (ignore lists and the privacy rules as in one world, PLAYER_OFFLINE for a character in no world), and a trade
 * request to a player of another world is NOT_IN_YOUR_WORLD.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from '../economy/support.ts';
import { json } from '../helpers/http.ts';
import { anonymousAccount, createCharacterRow } from '../helpers/players.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { putItems } from '../trade/support.ts';

interface Player {
  id: string;
  name: string;
  client: JsonWsClient;
}

const SPOT = { x: 120, z: 96 };

describe(`social across worlds (${databaseUnderTest()}) @db`, function () {
  this.timeout(60_000);
  let server: TestServer;
  let w1: number;
  let w2: number;
  const open: JsonWsClient[] = [];

  async function enter(client: JsonWsClient, characterId: string, world: number): Promise<void> {
    client.send('world:enter', { characterId, world });
    const joined = await client.waitFor('world:joined', () => true, 5_000, client.events.length);
    assert.equal(joined.data.world, world);
  }

  async function player(world: number): Promise<Player> {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, SPOT);
    const client = await JsonWsClient.connect(server.wsUrl);
    open.push(client);
    client.send('authenticate', { token: account.token });
    assert.equal((await client.waitFor('authResult')).data.success, true);
    await enter(client, character.id, world);
    // The player's own social:state means its friends were told it is online.
    await client.waitFor('social:state');
    return { id: character.id, name: character.name, client };
  }

  async function befriend(a: Player, b: Player): Promise<void> {
    assert.ok((await request(a.client, 'friend:request', { characterId: b.id }, 'friend:requestSent')).ok);
    await b.client.waitFor('friend:requestReceived', (d) => d.characterId === a.id);
    assert.ok((await request(b.client, 'friend:accept', { characterId: a.id }, 'friend:added')).ok);
    await a.client.waitFor('friend:added', (d) => d.characterId === b.id);
  }

  async function leave(p: Player): Promise<void> {
    p.client.send('world:leave');
    await p.client.waitFor('world:left', () => true, 5_000, p.client.events.length);
  }

  const count = (p: Player, type: string) => p.client.events.filter((e) => e.type === type).length;

  before(async () => {
    server = await startTestServer({ WORLDS_MIN: '2' });
    const response = await fetch(`${server.baseUrl}/api/v1/worlds`);
    const worlds = ((await json(response)).worlds as Array<{ world: number }>).map((w) => w.world).sort((a, b) => a - b);
    assert.ok(worlds.length >= 2, `two standing worlds, got ${JSON.stringify(worlds)}`);
    [w1, w2] = worlds;
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  after(() => server?.close());

  it('a request, its acceptance and the friends list reach a friend in another world, with its world', async () => {
    const a = await player(w1);
    const b = await player(w2);
    assert.ok((await request(a.client, 'friend:request', { characterId: b.id }, 'friend:requestSent')).ok);
    assert.deepEqual((await b.client.waitFor('friend:requestReceived')).data, { characterId: a.id, name: a.name });
    const incoming = await b.client.waitFor('social:state', (d) => d.incoming.length === 1);
    assert.deepEqual(incoming.data.incoming, [{ characterId: a.id, name: a.name, online: true, world: w1 }]);
    const outgoing = await a.client.waitFor('social:state', (d) => d.outgoing.length === 1);
    assert.deepEqual(outgoing.data.outgoing, [{ characterId: b.id, name: b.name, online: true, world: w2 }]);

    assert.ok((await request(b.client, 'friend:accept', { characterId: a.id }, 'friend:added')).ok);
    assert.deepEqual(b.client.events.find((e) => e.type === 'friend:added')!.data, { characterId: a.id, name: a.name, online: true, world: w1 });
    assert.deepEqual((await a.client.waitFor('friend:added')).data, { characterId: b.id, name: b.name, online: true, world: w2 });
    const listed = await a.client.waitFor('social:state', (d) => d.friends.length === 1);
    assert.deepEqual(listed.data.friends, [{ characterId: b.id, name: b.name, online: true, world: w2 }]);
  });

  it('entering and leaving a world is pushed to a friend in another world, with the world', async () => {
    const a = await player(w1);
    const b = await player(w2);
    await befriend(a, b);

    const from = a.client.events.length;
    await leave(b);
    const gone = await a.client.waitFor('friend:status', (d) => d.characterId === b.id, 5_000, from);
    assert.deepEqual(gone.data, { characterId: b.id, name: b.name, online: false, world: null });

    await enter(b.client, b.id, w1);
    const back = await a.client.waitFor('friend:status', (d) => d.characterId === b.id && d.online, 5_000, from);
    assert.deepEqual(back.data, { characterId: b.id, name: b.name, online: true, world: w1 });
    await b.client.waitFor('social:state', (d) => d.friends.length === 1, 5_000);

    // Leaving one world and entering another (what a hop is) is pushed twice, the world last named being the new one.
    const hop = a.client.events.length;
    await leave(b);
    await enter(b.client, b.id, w2);
    const moved = await a.client.waitFor('friend:status', (d) => d.characterId === b.id && d.online, 5_000, hop);
    assert.equal(moved.data.world, w2);
    const statuses = a.client.events.slice(hop).filter((e) => e.type === 'friend:status').map((e) => e.data.world);
    assert.deepEqual(statuses, [null, w2]);

    // Friends lists read the world from the database: the list a gets after its next change names w2.
    const c = await player(w2);
    const lists = a.client.events.length;
    assert.ok((await request(a.client, 'friend:request', { characterId: c.id }, 'friend:requestSent')).ok);
    const state = await a.client.waitFor('social:state', (d) => d.outgoing.length === 1, 5_000, lists);
    assert.deepEqual(state.data.friends, [{ characterId: b.id, name: b.name, online: true, world: w2 }]);
  });

  it('private messages cross worlds both ways; the sender hears they were delivered', async () => {
    const a = await player(w1);
    const b = await player(w2);
    await befriend(a, b);

    const there = await request(a.client, 'chat:private', { toId: b.id, message: 'hello world two' }, 'chat:privateMessageSent');
    assert.ok(there.ok);
    assert.equal(there.event.data.toName, b.name);
    const got = await b.client.waitFor('chat:privateMessage');
    assert.deepEqual({ ...got.data, timestamp: undefined }, {
      fromId: a.id, fromName: a.name, toId: b.id, toName: b.name, message: 'hello world two', channel: 'private', timestamp: undefined,
    });

    const back = await request(b.client, 'chat:private', { toName: a.name.toUpperCase(), message: 'hello world one' }, 'chat:privateMessageSent');
    assert.ok(back.ok);
    assert.equal((await a.client.waitFor('chat:privateMessage')).data.message, 'hello world one');
    assert.equal(count(a, 'chat:privateMessage'), 1);
    assert.equal(count(b, 'chat:privateMessage'), 1);
  });

  it('an ignored sender is refused across worlds exactly as inside one world', async () => {
    const a = await player(w1);
    const same = await player(w1);
    const other = await player(w2);
    await befriend(a, same);
    await befriend(a, other);
    assert.ok((await request(same.client, 'ignore:add', { characterId: a.id }, 'ignore:added')).ok);
    assert.ok((await request(other.client, 'ignore:add', { characterId: a.id }, 'ignore:added')).ok);

    const inWorld = await request(a.client, 'chat:private', { toId: same.id, message: 'hi' }, 'chat:privateMessageSent');
    const across = await request(a.client, 'chat:private', { toId: other.id, message: 'hi' }, 'chat:privateMessageSent');
    assert.equal(inWorld.ok ? 'sent' : inWorld.code, 'IGNORED');
    assert.equal(across.ok ? 'sent' : across.code, 'IGNORED');
    assert.equal(!across.ok && across.error.message, !inWorld.ok && inWorld.error.message);
    await sleep(200);
    assert.equal(count(other, 'chat:privateMessage'), 0);
    assert.equal(count(same, 'chat:privateMessage'), 0);
    assert.equal(count(a, 'chat:privateMessageSent'), 0);
  });

  it('a private message to a friend in no world is PLAYER_OFFLINE', async () => {
    const a = await player(w1);
    const b = await player(w2);
    await befriend(a, b);
    await leave(b);
    const offline = await request(a.client, 'chat:private', { toId: b.id, message: 'there?' }, 'chat:privateMessageSent');
    assert.equal(offline.ok ? 'sent' : offline.code, 'PLAYER_OFFLINE');
    const unknown = await request(a.client, 'chat:private', { toName: 'no such player here', message: 'there?' }, 'chat:privateMessageSent');
    assert.equal(unknown.ok ? 'sent' : unknown.code, 'PLAYER_OFFLINE');
    assert.equal(count(b, 'chat:privateMessage'), 0);
  });

  it('a trade request to a player in another world is NOT_IN_YOUR_WORLD and changes nothing', async () => {
    const a = await player(w1);
    const b = await player(w2);
    const neighbour = await player(w1);
    await putItems(server.context.db, b.id, [{ slot: 0, itemId: 'coins', quantity: 5 }]);
    const audits = async () => (await server.context.db.em.fork().execute<Array<{ n: number }>>(
      'select count(*)::int as n from trade_audit where initiator_id = ? or partner_id = ?', [a.id, a.id]))[0].n;

    a.client.send('tradeRequest', { targetPlayerId: b.id });
    const refused = await a.client.waitFor('tradeError');
    assert.equal(refused.data.code, 'NOT_IN_YOUR_WORLD');
    assert.equal(refused.data.world, w2);
    await sleep(200);
    assert.equal(count(b, 'tradeIncoming'), 0);
    assert.equal(await audits(), 0);

    // The same request inside the world goes through: it was the world that refused it.
    a.client.send('tradeRequest', { targetPlayerId: neighbour.id });
    assert.equal((await neighbour.client.waitFor('tradeIncoming')).data.fromPlayerId, a.id);

    // A player in no world is still PLAYER_NOT_FOUND.
    await leave(b);
    const from = a.client.events.length;
    a.client.send('tradeRequest', { targetPlayerId: b.id });
    assert.equal((await a.client.waitFor('tradeError', () => true, 5_000, from)).data.code, 'PLAYER_NOT_FOUND');
  });
});
