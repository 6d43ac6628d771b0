/**
 * World hopping (#19, docs/protocol.md "World hopping"): `world:hop {world}` moves the character to another world
 * of the process at the same tile with everything it owns, and is refused (nothing changes) while trading, in a
 * dialogue, within 10 s of combat, for the world it is in, an unknown or full world and a malformed number. A /ws
 * connection is moved by the server; an SDK client is told where to join. Two hops at once, or a hop racing a second
 * login of the character, never leave it in two worlds or in none.
 */
import assert from 'node:assert/strict';
import { Client as SdkClient } from '@colyseus/sdk';
import { matchMaker } from '@colyseus/core';
import type { WorldRoom } from '../../rooms/WorldRoom.ts';
import { lastSync as lastSyncOf, request, seed, stack, until, type Seed } from '../economy/support.ts';
import { anonymousAccount, createCharacterRow, visibleEntities, type TestAccount } from '../helpers/players.ts';
import { json } from '../helpers/http.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { AT_TAMSIN, TAMSIN, expectStep } from '../quests/support.ts';
import { inventoryRows, openTrade } from '../trade/support.ts';

interface Entered {
  client: JsonWsClient;
  account: TestAccount;
  characterId: string;
  name: string;
  world: number;
}

describe(`world hopping on one process (${databaseUnderTest()}) @db`, function () {
  this.timeout(60_000);
  let server: TestServer;
  let worldA: number;
  let worldB: number;
  const open: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer({ WORLD_CAPACITY: '2', WORLDS_MIN: '2', WS_MESSAGES_PER_SECOND: '1000' });
    const listed = (await json(await fetch(`${server.baseUrl}/api/v1/worlds`))).worlds as Array<{ world: number }>;
    [worldA, worldB] = listed.map((w) => w.world);
    assert.ok(worldA !== undefined && worldB !== undefined, 'two standing worlds');
  });
  afterEach(async () => {
    // A consented leave frees the seat at once (a dropped socket would hold it for the reconnection grace period).
    for (const client of open.splice(0)) {
      if (client.socket.readyState === client.socket.OPEN) {
        const left = client.next('world:left', () => true, 5_000).catch(() => undefined);
        client.send('world:leave');
        await Promise.race([left, client.next('error', (d) => d.event === 'world:leave').catch(() => undefined)]);
      }
      client.close();
    }
  });
  after(() => server?.close());

  async function authenticated(account: TestAccount): Promise<JsonWsClient> {
    const client = await JsonWsClient.connect(server.wsUrl);
    open.push(client);
    client.send('authenticate', { token: account.token });
    assert.equal((await client.waitFor('authResult')).data.success, true);
    return client;
  }

  async function enter(world: number, at: { x: number; z: number } = { x: 100, z: 100 }, items: Seed = {}): Promise<Entered> {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, at);
    await seed(server.context.db, character.id, items);
    const client = await authenticated(account);
    client.send('world:enter', { characterId: character.id, world });
    const joined = await client.waitFor('world:joined');
    await client.waitFor('player:sync');
    assert.equal(joined.data.world, world);
    return { client, account, characterId: character.id, name: character.name, world };
  }

  async function claims(characterId: string): Promise<Array<{ world: number; room_id: string }>> {
    return server.context.db.em.fork().execute('select world, room_id from character_worlds where character_id = ?', [characterId]);
  }

  async function worldRooms(): Promise<WorldRoom[]> {
    const listings = await matchMaker.query({ name: 'world' });
    return listings.map((listing) => matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom).filter(Boolean);
  }

  async function roomOf(world: number): Promise<WorldRoom> {
    const found = (await worldRooms()).find((room) => room.worldNumber === world);
    if (!found) throw new Error(`world ${world} is not open`);
    return found;
  }

  /** Where the character is: the worlds whose room holds it, its claims, and whether the process counts it online. */
  async function whereIs(characterId: string): Promise<{ rooms: number[]; claims: number[]; online: boolean }> {
    return {
      rooms: (await worldRooms()).filter((room) => room.player(characterId) !== undefined).map((room) => room.worldNumber).sort(),
      claims: (await claims(characterId)).map((c) => c.world),
      online: server.context.online.has(characterId),
    };
  }

  async function expectRefused(hopper: Entered, data: unknown, code: string): Promise<void> {
    const claimBefore = await claims(hopper.characterId);
    const reply = await request(hopper.client, 'world:hop', data, 'world:hopped', 5_000);
    assert.equal(reply.ok ? 'hopped' : reply.code, code, `world:hop ${JSON.stringify(data)}`);
    assert.deepEqual(await claims(hopper.characterId), claimBefore, 'the claim is unchanged');
    assert.deepEqual(await whereIs(hopper.characterId), { rooms: [hopper.world], claims: [hopper.world], online: true });
    assert.ok(!hopper.client.events.some((e) => e.type === 'world:left'), 'the connection stayed in its world');
  }

  it('a /ws hop lands in the target world at the same tile with the same items; both worlds see it go and come', async () => {
    const hopper = await enter(worldA, { x: 100, z: 100 }, { inventory: [stack('bronze_sword'), stack('coins', 25)] });
    const watcherA = await enter(worldA, { x: 101, z: 101 });
    const watcherB = await enter(worldB, { x: 101, z: 101 });
    const key = `player:${hopper.characterId}`;
    await until(async () => visibleEntities(watcherA.client).has(key));
    assert.ok(!visibleEntities(watcherB.client).has(key), 'world B does not see a player of world A');

    // Walk a little: the tile the hop keeps is the one the player stands on, not the one it entered at.
    hopper.client.send('player:move', { x: 103, z: 100 });
    await until(async () => (await roomOf(worldA)).player(hopper.characterId)?.x === 103);
    const inventoryBefore = await inventoryRows(server.context.db, hopper.characterId);
    assert.equal(inventoryBefore.length, 2);

    const started = performance.now();
    const hopped = hopper.client.next('world:hopped');
    const joined = hopper.client.next('world:joined');
    const sync = hopper.client.next('player:sync');
    hopper.client.send('world:hop', { world: worldB });
    assert.deepEqual((await hopped).data, { from: worldA, to: worldB });
    console.log(`      (the hop took ${(performance.now() - started).toFixed(0)} ms, not asserted)`);
    assert.equal((await joined).data.world, worldB);
    const landed = (await sync).data;
    assert.deepEqual([landed.world, landed.x, landed.z], [worldB, 103, 100], 'the same tile in the new world');
    assert.deepEqual(landed.inventory.filter(Boolean).map((s: { itemId: string; quantity: number }) => [s.itemId, s.quantity]),
      [['bronze_sword', 1], ['coins', 25]]);
    assert.ok(!hopper.client.events.some((e) => e.type === 'world:left'), 'a hop is not a world:left');

    assert.deepEqual(await inventoryRows(server.context.db, hopper.characterId), inventoryBefore, 'inventory rows unchanged');
    const claimed = await claims(hopper.characterId);
    assert.deepEqual(claimed, [{ world: worldB, room_id: (await roomOf(worldB)).roomId }], 'one claim, naming the new world');
    assert.deepEqual(await whereIs(hopper.characterId), { rooms: [worldB], claims: [worldB], online: true });
    await until(async () => !visibleEntities(watcherA.client).has(key));
    await until(async () => visibleEntities(watcherB.client).has(key));

    // The hopper acts in its new world.
    const moved = await request(hopper.client, 'player:move', { x: 104, z: 100 }, 'player:path');
    assert.ok(moved.ok);
    await until(async () => (await roomOf(worldB)).player(hopper.characterId)?.x === 104);
  });

  it('refuses the world it is in, an unknown world, a full world and a malformed number; nothing changes', async () => {
    const hopper = await enter(worldA);
    await expectRefused(hopper, { world: worldA }, 'HOP_SAME_WORLD');
    await expectRefused(hopper, { world: 9_000 }, 'WORLD_NOT_FOUND');
    for (const world of ['2', 0, 1.5, 10_000, -1, null]) await expectRefused(hopper, { world }, 'INVALID_PAYLOAD');
    await expectRefused(hopper, {}, 'INVALID_PAYLOAD');
    await expectRefused(hopper, { world: worldB, extra: 1 }, 'INVALID_PAYLOAD');
    await enter(worldB);
    await enter(worldB);
    await expectRefused(hopper, { world: worldB }, 'WORLD_FULL');
  });

  it('refuses while trading (a request or an open trade) and in a dialogue; nothing changes', async () => {
    const a = await enter(worldA, { x: 120, z: 96 });
    const b = await enter(worldA, { x: 121, z: 96 });
    const incoming = b.client.next('tradeIncoming');
    a.client.send('tradeRequest', { targetPlayerId: b.characterId });
    await incoming;
    await expectRefused(a, { world: worldB }, 'HOP_WHILE_TRADING');
    await expectRefused(b, { world: worldB }, 'HOP_WHILE_TRADING');
    // Answering the request closes it: it was the request that held them (trade requests have a cooldown, so the
    // open trade comes from b asking a).
    const declined = a.client.next('tradeCancelled');
    b.client.send('tradeRequestRespond', { tradeId: (await incoming).data.tradeId, accept: false });
    await declined;
    const tradeId = await openTrade({ id: b.characterId, name: b.name, account: b.account, ws: b.client }, { id: a.characterId, name: a.name, account: a.account, ws: a.client });
    await expectRefused(a, { world: worldB }, 'HOP_WHILE_TRADING');
    await expectRefused(b, { world: worldB }, 'HOP_WHILE_TRADING');
    const cancelled = a.client.next('tradeCancelled');
    b.client.send('tradeCancel', { tradeId });
    await cancelled;
    const afterTrade = await request(a.client, 'world:hop', { world: worldB }, 'world:hopped');
    assert.ok(afterTrade.ok, 'once the trade is over the hop goes through');
    const talker = await enter(worldA, AT_TAMSIN);
    await expectStep(talker.client, 'npc:talk', { npcId: TAMSIN });
    await expectRefused(talker, { world: worldB }, 'HOP_IN_DIALOGUE');
  });

  it('refuses within 10 s of combat', async () => {
    const fighter = await enter(worldA, { x: 91, z: 60 });
    fighter.client.send('player:action', { action: 'attack', targetId: 'npc-6' });
    await fighter.client.waitFor('combat:hit', (d) => d.attackerId === fighter.characterId || d.targetId === fighter.characterId, 10_000);
    await expectRefused(fighter, { world: worldB }, 'HOP_IN_COMBAT');
    const error = [...fighter.client.events].reverse().find((e) => e.type === 'error' && e.data.event === 'world:hop');
    assert.ok(error!.data.retryAfterSeconds > 0 && error!.data.retryAfterSeconds <= 11, 'the refusal says how long to wait');
  });

  it('an SDK client is told where to go, leaves and joins the target world', async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, { x: 102, z: 98 });
    const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${account.token}` } });
    const room = await sdk.join('world', { characterId: character.id, world: worldA });
    await new Promise((resolve) => room.onMessage('player:sync', resolve));
    const refused = new Promise<Record<string, unknown>>((resolve) => room.onMessage('error', resolve));
    room.send('world:hop', { world: worldA });
    assert.equal((await refused).code, 'HOP_SAME_WORLD');

    const started = performance.now();
    const approved = new Promise<Record<string, unknown>>((resolve) => room.onMessage('world:hop', resolve));
    room.send('world:hop', { world: worldB });
    const answer = await approved;
    assert.deepEqual(answer, { from: worldA, world: worldB, characterId: character.id });
    await room.leave();
    const next = await sdk.join('world', { characterId: answer.characterId, world: answer.world });
    const sync = await new Promise<Record<string, unknown>>((resolve) => next.onMessage('player:sync', resolve));
    console.log(`      (the SDK hop took ${(performance.now() - started).toFixed(0)} ms, not asserted)`);
    assert.deepEqual([sync.world, sync.x, sync.z], [worldB, 102, 98]);
    assert.deepEqual(await whereIs(character.id), { rooms: [worldB], claims: [worldB], online: true });
    await next.leave();
  });

  it('a target that fills up while the hopper leaves sends it back to its world, with the refusal', async () => {
    const hopper = await enter(worldA, { x: 100, z: 100 }, { inventory: [stack('coins', 7)] });
    const target = await roomOf(worldB);
    // The room approved the hop; while the leave saves, the target stops taking players (as if it had filled up).
    const leaving = server.context.leaving;
    const set = leaving.set.bind(leaving);
    leaving.set = (id, save) => {
      if (id === hopper.characterId) void target.lock();
      return set(id, save);
    };
    try {
      const refused = hopper.client.next('error', (d) => d.event === 'world:hop');
      const back = hopper.client.next('world:joined');
      hopper.client.send('world:hop', { world: worldB });
      assert.equal((await refused).data.code, 'WORLD_FULL');
      assert.equal((await back).data.world, worldA, 'back in the world it left');
    } finally {
      leaving.set = set;
      await target.unlock();
    }
    assert.ok(!hopper.client.events.some((e) => e.type === 'world:hopped' || e.type === 'world:left'));
    assert.deepEqual(await whereIs(hopper.characterId), { rooms: [worldA], claims: [worldA], online: true });
    assert.deepEqual(lastSyncOf(hopper.client).inventory.filter(Boolean).map((s: { itemId: string }) => s.itemId), ['coins']);
    const moved = await request(hopper.client, 'player:move', { x: 101, z: 100 }, 'player:path');
    assert.ok(moved.ok, 'the connection plays on in its world');
  });

  it('two hops at once from one connection leave the character in exactly one world', async () => {
    const hopper = await enter(worldA);
    hopper.client.send('world:hop', { world: worldB });
    hopper.client.send('world:hop', { world: worldB });
    await hopper.client.waitFor('world:hopped');
    const second = await hopper.client.waitFor('error', (d) => d.event === 'world:hop');
    assert.equal(second.data.code, 'HOP_SAME_WORLD', 'the second hop is handled in the new world');
    assert.deepEqual(await whereIs(hopper.characterId), { rooms: [worldB], claims: [worldB], online: true });

    // There and back at once.
    hopper.client.send('world:hop', { world: worldA });
    hopper.client.send('world:hop', { world: worldB });
    await until(async () => hopper.client.events.filter((e) => e.type === 'world:hopped').length === 3);
    assert.deepEqual(await whereIs(hopper.characterId), { rooms: [worldB], claims: [worldB], online: true });
    assert.equal(hopper.client.events.filter((e) => e.type === 'world:joined').length, 4);
  });

  it('a hop racing a second login of the character leaves it in exactly one world', async () => {
    // The second login is sent at different moments of the hop: before, during and after its leave.
    for (const [round, delayMs] of [0, 2, 5, 10, 20].entries()) {
      const hopper = await enter(worldA);
      const second = await authenticated(hopper.account);
      const hopOutcome = Promise.race([
        hopper.client.next('world:hopped').then(() => 'hopped'),
        hopper.client.next('error', (d) => d.event === 'world:hop').then((e) => e.data.code as string),
      ]);
      const loginOutcome = Promise.race([
        second.next('world:joined').then((e) => `joined ${e.data.world}`),
        second.next('error').then((e) => e.data.code as string),
      ]);
      hopper.client.send('world:hop', { world: worldB });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      second.send('world:enter', { characterId: hopper.characterId });
      const outcomes = [await hopOutcome, await loginOutcome];
      console.log(`      (second login after ${delayMs} ms: hop ${outcomes[0]}, second login ${outcomes[1]})`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const where = await whereIs(hopper.characterId);
      assert.equal(where.rooms.length, 1, `in one world (${outcomes.join(', ')})`);
      assert.deepEqual(where.claims, where.rooms, 'the claim names the world it is in');
      assert.equal(where.online, true);
      const inWorld = [hopper.client, second].filter((c) => {
        const joined = c.events.filter((e) => e.type === 'world:joined' || e.type === 'world:left').at(-1);
        return joined?.type === 'world:joined';
      });
      assert.equal(inWorld.length, 1, `one connection holds the character (${outcomes.join(', ')})`);
      // Clean up this round's seats before the next.
      for (const client of [hopper.client, second]) {
        if (!inWorld.includes(client)) continue;
        const left = client.next('world:left');
        client.send('world:leave');
        await left;
      }
    }
  });
});
