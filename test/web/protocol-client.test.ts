/**
 * The play page's /ws client (src/web/play/lib/protocol-client.js) and its session against the real server, over
 * the WebSocket Node 22 has built in — the same API a browser gives the page. It is the reference client: what it
 * does is what docs/protocol.md says a client does.
 */
import assert from 'node:assert/strict';
import { CloseCode, GameConnection, Refusal } from '../../src/web/play/lib/protocol-client.js';
import { RestClient } from '../../src/web/play/lib/rest-client.js';
import { GameSession } from '../../src/web/play/lib/session.js';
import { loadWorldData } from '../../src/web/play/lib/world-data.js';
import { uniqueName } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

type Connection = InstanceType<typeof GameConnection>;
// Event payloads are checked field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = any;

/** Resolves when `check` holds, looked at after every event of the connection (bounded in time). */
function until(connection: Connection, check: () => boolean, timeoutMs = 10_000, what = 'a condition'): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve();
    const timer = setTimeout(() => { off(); offState(); reject(new Error(`timed out waiting for ${what}`)); }, timeoutMs);
    const test = () => {
      if (!check()) return;
      clearTimeout(timer);
      off();
      offState();
      resolve();
    };
    const off = connection.on('*', test);
    const offState = connection.on('connection', test);
  });
}

describe('play page: the /ws client against the server @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  const open: Connection[] = [];
  const connect = () => {
    const connection = new GameConnection({ url: `${server.wsUrl}/ws`, retryDelaysMs: [100, 300, 600, 1000] });
    open.push(connection);
    return connection;
  };

  before(async () => {
    server = await startTestServer({ WORLDS_MIN: '2', WS_MESSAGES_PER_SECOND: '1000' });
  });
  after(async () => {
    for (const connection of open) {
      if (connection.joined) await connection.leave().catch(() => undefined);
      connection.close();
    }
    await server?.close();
  });

  it('authenticates anonymously, creates a character by entering, walks, and sees every event in order', async () => {
    const game = connect();
    const types: string[] = [];
    game.on('*', (_data: unknown, type: string) => types.push(type));
    const states: string[] = [];
    game.on('connection', ({ state }: { state: string }) => states.push(state));
    const auth = await game.authenticate();
    assert.equal(auth.temporary, true);
    assert.ok(game.token, 'anonymous mode hands out a token to reconnect with');
    const joined = await game.enter({ createCharacter: { name: uniqueName('Pw').slice(0, 12), templateId: 'wanderer' } });
    assert.equal(joined.world, 1);
    assert.match(joined.reconnectionToken, /^.+:.+$/);
    assert.ok(game.characterId, 'learnt from player:sync');
    assert.ok(types.includes('player:sync') && types.includes('world:update') && types.indexOf('world:joined') > types.indexOf('player:sync'));
    assert.deepEqual(states, ['connecting', 'authenticated', 'entering', 'in-world']);
    const path = await game.request('player:move', { x: 102, z: 100 }, 'player:path');
    assert.deepEqual(path.path.at(-1), { x: 102, z: 100 });
  });

  it('turns a refusal into a Refusal with its code; the connection stays usable', async () => {
    const game = connect();
    await game.authenticate();
    await assert.rejects(game.enter({ createCharacter: { name: 'no!good!name' } }), (error: unknown) => error instanceof Refusal && error.code === 'INVALID_NAME');
    assert.equal(game.state, 'authenticated');
    await assert.rejects(game.request('player:move', { x: 1, z: 1 }, 'player:path'), (error: unknown) => error instanceof Refusal && error.code === 'NOT_IN_WORLD');
    await game.enter({ createCharacter: { name: uniqueName('Pr').slice(0, 12) } });
    assert.equal(game.state, 'in-world');
  });

  it('takes its seat back after a dropped connection: same world, same tile, and a fresh view that adds the player itself', async () => {
    const game = connect();
    const session = new GameSession({ connection: game, world: await loadWorldData(new RestClient({ baseUrl: server.baseUrl })) });
    await game.authenticate();
    const before = await game.enter({ createCharacter: { name: uniqueName('Rc').slice(0, 12) } });
    await game.request('player:move', { x: 101, z: 101 }, 'player:path');
    await until(game, () => session.selfEntity?.x === 101 && session.selfEntity?.z === 101, 10_000, 'the walk');
    const seen: Array<{ type: string; data: Data }> = [];
    game.on('*', (data: unknown, type: string) => seen.push({ type, data }));
    const states: string[] = [];
    game.on('connection', ({ state }: { state: string }) => states.push(state));
    game.drop();
    await until(game, () => game.state === 'in-world' && states.includes('reconnecting'), 15_000, 'the reconnection');
    assert.equal(game.joined?.roomId, before.roomId, 'the same world room');
    assert.notEqual(game.joined?.reconnectionToken, before.reconnectionToken, 'a new token for the next drop');
    const sync = seen.find((e) => e.type === 'player:sync');
    assert.deepEqual([sync?.data.x, sync?.data.z], [101, 101], 'at the kept position');
    await until(game, () => seen.some((e) => e.type === 'world:update' && e.data.added.some((a: { id: string }) => a.id === game.characterId)), 5_000, 'a view with the player in it');
    const path = await game.request('player:move', { x: 102, z: 101 }, 'player:path');
    assert.deepEqual(path.path.at(-1), { x: 102, z: 101 }, 'and it plays on');
    session.dispose();
  });

  it('does not retry after a close it caused or a failed authentication (4001)', async () => {
    const game = connect();
    await assert.rejects(game.authenticate('not-a-token'), (error: unknown) => error instanceof Refusal && error.code === 'TOKEN_INVALID');
    await until(game, () => game.state === 'closed', 5_000, 'the 4001 close');
    assert.equal(CloseCode.AUTH_FAILED, 4001);
    const other = connect();
    await other.authenticate();
    await other.enter({ createCharacter: { name: uniqueName('Lv').slice(0, 12) } });
    await other.leave();
    assert.equal(other.joined, undefined);
    other.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(other.state, 'closed');
  });

  it('a session: the store follows world:update, the path is trimmed, and a hop starts the view afresh', async () => {
    const rest = new RestClient({ baseUrl: server.baseUrl });
    const world = await loadWorldData(rest);
    assert.equal(world.width, 200, 'the manifests come from the server');
    const stay = connect();
    await stay.authenticate();
    await stay.enter({ createCharacter: { name: uniqueName('St').slice(0, 12) }, world: 1 });
    const game = connect();
    const session = new GameSession({ connection: game, world });
    await game.authenticate();
    await game.enter({ createCharacter: { name: uniqueName('Hp').slice(0, 12) }, world: 1 });
    await until(game, () => Boolean(session.selfEntity) && Boolean(session.store.get('player', stay.characterId)), 10_000, 'both players in view');
    session.walkTo(103, 100);
    await until(game, () => session.path.tiles.length > 0, 5_000, 'player:path');
    await until(game, () => (session.selfEntity as Data)?.x === 103 && session.path.tiles.length === 0, 10_000, 'the walk, trimmed to nothing');
    await game.hop(2);
    assert.equal(game.joined?.world, 2);
    await until(game, () => session.selfEntity !== undefined && (session.state as Data).world?.world === 2, 5_000, 'the new world');
    assert.equal(session.store.get('player', stay.characterId), undefined, 'nobody from world 1 is left in the view');
    assert.ok(session.store.count('npc') > 0, 'world 2 has its own NPCs in view');
    assert.ok(session.state.log.some((line: { text: string }) => line.text === 'You hop from world 1 to world 2.'));
    session.dispose();
  });
});
