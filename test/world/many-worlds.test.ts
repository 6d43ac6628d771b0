/**
 * Many worlds (#19, docs/worlds.md) on one process: worlds of WORLD_CAPACITY players, filled before another opens,
 * numbered, listed, chosen by number (WORLD_FULL, WORLD_NOT_FOUND), closed once empty unless they are standing
 * worlds; and a character in at most one world, held in `character_worlds` where every process sees it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client as SdkClient } from '@colyseus/sdk';
import { anonymousAccount, createCharacterRow, type TestAccount } from '../helpers/players.ts';
import { json } from '../helpers/http.ts';
import { clearLeftoversAbove } from '../helpers/database.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { listWorlds, pickWorld } from '../../rooms/entry/world-choice.ts';
import { until } from '../helpers/until.ts';

const METRICS_TOKEN = 'many-worlds-scraper';

interface Entered {
  client: JsonWsClient;
  world: number;
  characterId: string;
}

async function authenticated(server: TestServer, account: TestAccount): Promise<JsonWsClient> {
  const client = await JsonWsClient.connect(server.wsUrl);
  client.send('authenticate', { token: account.token });
  assert.equal((await client.waitFor('authResult')).data.success, true);
  return client;
}

async function enter(server: TestServer, world?: number): Promise<Entered> {
  const account = await anonymousAccount(server);
  const character = await createCharacterRow(server, account.accountId);
  const client = await authenticated(server, account);
  client.send('world:enter', { characterId: character.id, ...(world === undefined ? {} : { world }) });
  const joined = await client.waitFor('world:joined');
  const sync = await client.waitFor('player:sync');
  assert.equal(sync.data.world, joined.data.world, 'player:sync names the same world');
  return { client, world: joined.data.world, characterId: character.id };
}

async function refusal(server: TestServer, payload: Record<string, unknown>): Promise<{ code: string; message: string }> {
  const account = await anonymousAccount(server);
  const character = await createCharacterRow(server, account.accountId);
  const client = await authenticated(server, account);
  client.send('world:enter', { characterId: character.id, ...payload });
  const error = await client.waitFor('error');
  client.close();
  return error.data;
}

async function worldList(server: TestServer): Promise<Array<{ world: number; players: number; capacity: number; status: string }>> {
  const response = await fetch(`${server.baseUrl}/api/v1/worlds`);
  assert.equal(response.status, 200);
  return (await json(response)).worlds;
}

async function claimsOf(server: TestServer, characterId: string): Promise<Array<{ world: number; room_id: string }>> {
  return server.context.db.em.fork().execute('select world, room_id from character_worlds where character_id = ?', [characterId]);
}

/** For checks that ask the database or Redis: asked less often than `until` asks. */
const settled = (check: () => Promise<boolean>, what: string) => until(check, what, 10_000, 100);

describe(`many worlds on one process (${databaseUnderTest()}) @db`, function () {
  this.timeout(60_000);
  let server: TestServer;
  const open: JsonWsClient[] = [];

  before(async () => {
    await clearLeftoversAbove(1);
    server = await startTestServer({ WORLD_CAPACITY: '2', WORLDS_MIN: '1', WORLD_IDLE_CLOSE_SECONDS: '1', METRICS_TOKEN });
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  after(() => server?.close());

  it('fills a world before opening the next, numbers and lists them, and closes an emptied world', async () => {
    const [standing] = await worldList(server);
    assert.equal(standing.players, 0);
    assert.equal(standing.capacity, 2);
    const first = await enter(server);
    const second = await enter(server);
    const third = await enter(server);
    open.push(first.client, second.client, third.client);
    assert.equal(first.world, standing.world, 'the standing world fills first');
    assert.equal(second.world, standing.world);
    assert.notEqual(third.world, standing.world, 'a full world sends the next player to a new one');

    // The list is cached for 2 s.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const listed = await worldList(server);
    assert.deepEqual(listed.map((w) => [w.world, w.players, w.status]), [[standing.world, 2, 'full'], [third.world, 1, 'open']]);
    const status = await json(await fetch(`${server.baseUrl}/status`));
    assert.deepEqual(status.worlds.map((w: { world: number; players: number }) => [w.world, w.players]), [[standing.world, 2], [third.world, 1]]);
    const metrics = await (await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    assert.match(metrics, new RegExp(`game_world_players\\{world="${third.world}"\\} 1`));

    for (const { characterId, world } of [first, second, third]) {
      assert.deepEqual((await claimsOf(server, characterId)).map((c) => c.world), [world], 'one claim, on the world entered');
    }

    third.client.send('world:leave', {});
    await third.client.waitFor('world:left');
    assert.deepEqual(await claimsOf(server, third.characterId), [], 'leaving releases the claim');
    // WORLD_IDLE_CLOSE_SECONDS=1: the emptied world closes; the standing one stays, however empty.
    await settled(async () => (await server.context.db.em.fork().execute('select number from worlds where number = ?', [third.world])).length === 0, 'the empty world to close');
    first.client.send('world:leave', {});
    second.client.send('world:leave', {});
    await first.client.waitFor('world:left');
    await second.client.waitFor('world:left');
    await settled(async () => JSON.stringify((await worldList(server)).map((w) => [w.world, w.players])) === JSON.stringify([[standing.world, 0]]),
      'the list to show the standing world alone, empty');
  });

  it('enters the world asked for, and refuses a full one, an unknown one and a malformed number', async () => {
    const [standing] = await worldList(server);
    const a = await enter(server, standing.world);
    const b = await enter(server, standing.world);
    open.push(a.client, b.client);
    assert.equal(a.world, standing.world);
    assert.equal(b.world, standing.world);
    assert.equal((await refusal(server, { world: standing.world })).code, 'WORLD_FULL');
    assert.equal((await refusal(server, { world: 9_000 })).code, 'WORLD_NOT_FOUND');
    for (const world of ['1', 0, 1.5, 10_000, -1]) {
      assert.equal((await refusal(server, { world })).code, 'INVALID_REQUEST', `world ${JSON.stringify(world)}`);
    }
    // The SDK asks the same way, and gets the same code (a 409 problem through the matchmaker).
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId);
    const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${account.token}` } });
    await assert.rejects(sdk.join('world', { characterId: character.id, world: standing.world }),
      (error: Error & { code?: number }) => /^WORLD_FULL/.test(error.message) && error.code === 409);
    const room = await sdk.join('world', { characterId: character.id });
    const sync = await new Promise<Record<string, unknown>>((resolve) => room.onMessage('player:sync', resolve));
    assert.notEqual(sync.world, standing.world, 'without a number the SDK joins a world with room');
    await room.leave();
  });

  it('keeps a character in one world: concurrent entries, and a claim held by a world of another process', async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId);
    const clients = await Promise.all(Array.from({ length: 6 }, () => authenticated(server, account)));
    open.push(...clients);
    for (const client of clients) client.send('world:enter', { characterId: character.id });
    const outcomes = await Promise.all(clients.map((client) => Promise.race([
      client.waitFor('world:joined').then(() => 'joined'),
      client.waitFor('error').then((event) => event.data.code as string),
    ])));
    assert.equal(outcomes.filter((outcome) => outcome === 'joined').length, 1, outcomes.join(', '));
    assert.ok(outcomes.filter((outcome) => outcome !== 'joined').every((code) => code === 'ALREADY_ONLINE'), outcomes.join(', '));
    assert.equal((await claimsOf(server, character.id)).length, 1);
    for (const client of clients) client.close();

    // Another process' live world holds a character: this process refuses it, until that world's row is gone.
    const other = await createCharacterRow(server, account.accountId);
    const em = server.context.db.em.fork();
    const roomId = `elsewhere-${randomUUID()}`;
    const number = 8_000 + Math.floor(Math.random() * 1_000);
    const [{ epoch }] = await em.execute<Array<{ epoch: string }>>(
      `insert into worlds (number, room_id, process_id, epoch, lease_until) values (?, ?, ?, nextval('world_epochs'), now() + interval '1 minute') returning epoch`,
      [number, roomId, 'another-process']);
    await em.execute('insert into character_worlds (character_id, world, room_id, epoch) values (?, ?, ?, ?)', [other.id, number, roomId, epoch]);
    const client = await authenticated(server, account);
    open.push(client);
    client.send('world:enter', { characterId: other.id });
    assert.equal((await client.waitFor('error')).data.code, 'ALREADY_ONLINE');
    assert.equal(server.context.online.has(other.id), false);
    // That process died: its world's lease lapses (docs/scaling.md); the stale claim is taken over.
    await em.execute(`update worlds set lease_until = now() - interval '1 second' where room_id = ?`, [roomId]);
    client.send('world:enter', { characterId: other.id });
    const joined = await client.waitFor('world:joined');
    assert.deepEqual((await claimsOf(server, other.id)).map((c) => c.world), [joined.data.world]);
    await em.execute('delete from worlds where room_id = ?', [roomId]);
  });
});

describe(`opening worlds for a burst of entries (${databaseUnderTest()}) @db`, function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ WORLD_CAPACITY: '1', WORLDS_MIN: '1' });
  });
  after(() => server?.close());

  it('opens one new world for entries that find every world full at once, not one each', async () => {
    const first = await enter(server);
    const before = (await listWorlds()).length;
    const picked = await Promise.all(Array.from({ length: 10 }, () => pickWorld()));
    assert.equal(new Set(picked.map((listing) => listing.roomId)).size, 1, 'every entry of the burst got the same new world');
    assert.notEqual(picked[0].metadata!.world, first.world);
    assert.equal((await listWorlds()).length, before + 1);
    first.client.close();
  });
});
