/**
 * Issue #37 item 4: an SDK client's `room.state` holds exactly the entities of its area of interest, with the same
 * fields, as a /ws client at the same place is told. An SDK observer and a /ws observer walk side by side across
 * many interest areas among other walkers; at every tick where both stand on the same tile, the SDK client's decoded
 * state (as its first patch of that tick left it) must equal the /ws client's view after that tick's world:update.
 * Then the SDK client drops and reconnects, and both hop to another world, and the comparison goes on.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client as SdkClient, type Room as SdkRoom } from '@colyseus/sdk';
import { matchMaker } from '@colyseus/core';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import { anonymousAccount, createCharacterRow, dropSdkConnection, leaveWorlds, type TestAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { seed, stack } from '../economy/support.ts';
import { until } from '../helpers/until.ts';

type Fields = Record<string, unknown>;

const RADIUS = 6;
type View = Map<string, Fields>;

/** The schema maps of the world state and the `kind` a /ws client is told for their entities. */
const KINDS = { players: 'player', npcs: 'npc', resources: 'resource', groundItems: 'groundItem', gravestones: 'gravestone', fires: 'fire' } as const;

/** What an SDK client holds: every entity of every view-tagged map, as plain fields. */
function sdkView(state: Record<string, { forEach?: (cb: (value: { toJSON(): Fields }, key: string) => void) => void }>): View {
  const view: View = new Map();
  for (const [map, kind] of Object.entries(KINDS)) {
    state[map]?.forEach?.((entity, id) => view.set(`${kind}:${id}`, entity.toJSON()));
  }
  return view;
}

/**
 * Records the SDK client's view at its first patch of each tick, from the first tick that began after it joined:
 * the whole state a client gets on joining is taken when it acknowledges the join, at any moment of a tick.
 */
function watchSdk(room: SdkRoom, byTick: Map<number, View>): void {
  let last: number | undefined;
  room.onStateChange((state: { tick: number }) => {
    if (state.tick === last) return;
    const first = last === undefined;
    last = state.tick;
    if (!first) byTick.set(state.tick, sdkView(state as never));
  });
}

/**
 * Follows a /ws client's world:update stream into a view, recorded after each tick's frame. A frame that adds the
 * client's own player is the first of a world it entered: the view starts again from it. Reads the client's event
 * log from its start, so frames that arrived before this was called count too.
 */
function watchJson(client: JsonWsClient, selfId: string, byTick: Map<number, View>): void {
  let view: View = new Map();
  let read = 0;
  const catchUp = () => {
    for (; read < client.events.length; read++) {
      const event = client.events[read];
      if (event.type !== 'world:update') continue;
      const data = event.data as { tick: number; added: Fields[]; changed: Fields[]; removed: Fields[] };
      if (data.added.some((entity) => entity.kind === 'player' && entity.id === selfId)) view = new Map();
      for (const { kind, ...fields } of data.added) view.set(`${kind}:${fields.id}`, fields);
      for (const { kind, ...fields } of data.changed) Object.assign(view.get(`${kind}:${fields.id}`) ?? {}, fields);
      for (const gone of data.removed) view.delete(`${gone.kind}:${gone.id}`);
      byTick.set(data.tick, new Map([...view].map(([key, fields]) => [key, { ...fields }])));
    }
  };
  catchUp();
  client.socket.on('message', catchUp);
}

/**
 * Compares the views at every tick where both observers stood on the same tile (each holds both players).
 *
 * `band`: an entity leaves an area only past its radius plus a hysteresis (rooms/world/interest.ts), so what an
 * observer sees there depends on its history. After the SDK client reconnects or enters a world on its own, its
 * history starts again and the /ws client's does not: entities beyond `band` tiles may then be held by one only.
 */
function compareViews(sdk: Map<number, View>, json: Map<number, View>, sdkId: string, jsonId: string, label: string, band = Infinity): { ticks: number; keys: Set<string> } {
  let ticks = 0;
  const keys = new Set<string>();
  for (const [tick, jsonView] of json) {
    const sdkView: View | undefined = sdk.get(tick);
    if (!sdkView) continue;
    const a = sdkView.get(`player:${sdkId}`);
    const b = jsonView.get(`player:${sdkId}`);
    const c = sdkView.get(`player:${jsonId}`);
    if (!a || !b || !c || a.x !== c.x || a.z !== c.z) continue;
    ticks++;
    const inBand = (fields: Fields) => Math.max(Math.abs(Number(fields.x) - Number(a.x)), Math.abs(Number(fields.z) - Number(a.z))) > band;
    const entities = (view: View, other: View) => [...view].filter(([key, fields]) => other.has(key) || !inBand(fields)).map(([key]) => key).sort();
    assert.deepEqual(entities(sdkView, jsonView), entities(jsonView, sdkView), `${label}, tick ${tick}: the same entities`);
    for (const [key, fields] of jsonView) {
      const held: Fields | undefined = sdkView.get(key);
      if (!held) continue;
      keys.add(key);
      // The same fields, with the same values; a schema string holds "" where /ws says null (no owner).
      assert.deepEqual(Object.keys(held).sort(), Object.keys(fields).sort(), `${label}, tick ${tick}: ${key} has the same fields`);
      const shared = Object.keys(fields);
      const told: Fields = Object.fromEntries(shared.map((field): [string, unknown] => [field, fields[field] ?? '']));
      const same: Fields = Object.fromEntries(shared.map((field): [string, unknown] => [field, held[field]]));
      assert.deepEqual(same, told, `${label}, tick ${tick}: ${key} has the same values`);
    }
  }
  return { ticks, keys };
}

describe('an SDK client sees what a /ws client sees (issue #37) @db', function () {
  this.timeout(180_000);
  let server: TestServer;
  let worldA: number;
  let worldB: number;

  before(async () => {
    // Dropped items public at once: both observers (two characters) see the pacers' drops.
    server = await startTestServer({ WORLD_INTEREST_RADIUS: String(RADIUS), WORLDS_MIN: '2', WS_MESSAGES_PER_SECOND: '1000', GROUND_ITEM_PRIVATE_SECONDS: '0' });
    const listed = (await matchMaker.query({ name: 'world' })).map((w) => w.metadata.world as number).sort((a, b) => a - b);
    [worldA, worldB] = listed;
    assert.ok(worldA !== undefined && worldB !== undefined, 'two standing worlds');
  });
  after(() => server?.close());

  it('tick by tick, across many areas of interest, through a reconnection and a hop', async () => {
    const blocked = computeBlockedTiles(server.context.data!);
    /** The free tile nearest (x, z), searched in growing rings. */
    const free = (x: number, z: number) => {
      for (let r = 0; r < 20; r++) {
        for (let dx = -r; dx <= r; dx++) for (const dz of [-r, r]) if (!blocked.isBlocked(x + dx, z + dz)) return { x: x + dx, z: z + dz };
        for (let dz = -r; dz <= r; dz++) for (const dx of [-r, r]) if (!blocked.isBlocked(x + dx, z + dz)) return { x: x + dx, z: z + dz };
      }
      throw new Error(`no free tile near ${x},${z}`);
    };
    // From the town's warden to the chickens' and the cows' fields (spawns.json), back, then in another world.
    const start = free(100, 97);
    const route = [free(92, 64), free(110, 58), free(100, 76), free(100, 97)];

    const sdkAccount = await anonymousAccount(server);
    const jsonAccount = await anonymousAccount(server);
    const sdkCharacter = await createCharacterRow(server, sdkAccount.accountId, start);
    const jsonCharacter = await createCharacterRow(server, jsonAccount.accountId, start);

    // Other walkers along the route, pacing between two tiles in both worlds: entities that change, come and go. The
    // first of each world drops coins where it stands: a ground item on the route.
    const pacers: JsonWsClient[] = [];
    const spots = [free(97, 86), free(95, 74), free(101, 61), free(104, 68)];
    for (const world of [worldA, worldB]) {
      for (const [i, spot] of spots.entries()) {
        const account = await anonymousAccount(server);
        const character = await createCharacterRow(server, account.accountId, spot);
        if (i === 0) await seed(server.context.db, character.id, { inventory: [stack('coins', 50)] });
        const pacer = await enterJson(server, account, character.id, world);
        pacers.push(pacer);
        if (i === 0) {
          const from = pacer.events.length;
          pacer.send('inventory:drop', { slot: 0, quantity: 10 });
          await pacer.waitFor('inventory:dropped', undefined, 10_000, from);
        }
      }
    }
    let pace = 0;
    const pacing = setInterval(() => {
      pace++;
      pacers.forEach((pacer, i) => pacer.send('player:move', pace % 2 === 0 ? spots[i % spots.length] : free(spots[i % spots.length].x + 3, spots[i % spots.length].z + 2)));
    }, 1_500);

    const sdkTicks = new Map<number, View>();
    const jsonTicks = new Map<number, View>();
    const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${sdkAccount.token}` } });
    let room = await sdk.join('world', { characterId: sdkCharacter.id, world: worldA });
    room.onMessage('*', () => {});
    watchSdk(room, sdkTicks);
    const json = await enterJson(server, jsonAccount, jsonCharacter.id, worldA);
    watchJson(json, jsonCharacter.id, jsonTicks);

    const here = () => room.state.players?.get(sdkCharacter.id) as { x: number; z: number } | undefined;
    /** Both walk to `to`, sent together so that both paths start in the same tick. */
    const walk = async (to: { x: number; z: number }) => {
      room.send('player:move', to);
      json.send('player:move', to);
      await until(() => here()?.x === to.x && here()?.z === to.z, `walk to ${to.x},${to.z}`, 40_000);
      await sleep(1_300);
    };

    try {
      await walk(route[0]);
      await walk(route[1]);
      const first = compareViews(sdkTicks, jsonTicks, sdkCharacter.id, jsonCharacter.id, 'walking');
      assert.ok(first.ticks >= 25, `compared ${first.ticks} ticks while walking`);
      assert.ok(first.keys.size >= 8, `saw ${first.keys.size} entities`);
      assert.ok([...first.keys].some((key) => key.startsWith('groundItem:')), 'a ground item among them');

      // A dropped socket, reconnected with the token: the new room's state must again be the area.
      const token = room.reconnectionToken;
      await dropSdkConnection(room);
      sdkTicks.clear();
      jsonTicks.clear();
      room = await new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${sdkAccount.token}` } }).reconnect(token);
      room.onMessage('*', () => {});
      watchSdk(room, sdkTicks);
      await walk(route[2]);
      const second = compareViews(sdkTicks, jsonTicks, sdkCharacter.id, jsonCharacter.id, 'after reconnecting', RADIUS);
      assert.ok(second.ticks >= 10, `compared ${second.ticks} ticks after reconnecting`);

      // Both hop to the other world: the SDK client joins it as docs/protocol.md says, the /ws one is moved.
      const approved = new Promise<{ world: number; characterId: string }>((resolve) => room.onMessage('world:hop', resolve));
      room.send('world:hop', { world: worldB });
      json.send('world:hop', { world: worldB });
      const answer = await approved;
      await room.leave();
      await json.waitFor('world:hopped', undefined, 10_000);
      sdkTicks.clear();
      jsonTicks.clear();
      room = await sdk.join('world', { characterId: answer.characterId, world: answer.world });
      room.onMessage('*', () => {});
      watchSdk(room, sdkTicks);
      await walk(route[3]);
      const third = compareViews(sdkTicks, jsonTicks, sdkCharacter.id, jsonCharacter.id, 'after the hop', RADIUS);
      assert.ok(third.ticks >= 10, `compared ${third.ticks} ticks after the hop`);
    } finally {
      clearInterval(pacing);
      await room.leave().catch(() => undefined);
      await leaveWorlds([json, ...pacers]);
    }
  });
});

async function enterJson(server: TestServer, account: TestAccount, characterId: string, world: number): Promise<JsonWsClient> {
  const client = await JsonWsClient.connect(server.wsUrl);
  client.send('authenticate', { token: account.token });
  const auth = await client.waitFor('authResult');
  if (!auth.data.success) throw new Error(`authentication failed: ${JSON.stringify(auth.data)}`);
  client.send('world:enter', { characterId, world });
  await client.waitFor('world:joined');
  return client;
}
