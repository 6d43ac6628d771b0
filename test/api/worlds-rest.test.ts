/**
 * The REST routes and the agents with several worlds on one process (#19): GET /api/v1/world answers for the
 * caller's world or ?world=N, an agent goal set over REST drives its character in whichever world it is (and the
 * other world's tick leaves it alone), and the voice grant names the room the character is in.
 */
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { worldNumbered } from '../../rooms/world/running-world.ts';
import { anonymousAccount, createCharacterRow, leaveWorlds, type TestAccount } from '../helpers/players.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { call, eventually, registerAgent, sleep } from './support.ts';

const VOICE = {
  VOICE_API_KEY: 'APIworldsrest1',
  VOICE_API_SECRET: 'worlds-rest-voice-secret-0123456789',
  VOICE_URL: 'wss://voice.example.test',
};

interface InWorld {
  account: TestAccount;
  characterId: string;
  socket: JsonWsClient;
}

describe(`REST and agents with two worlds on one process (${databaseUnderTest()}) @db`, function () {
  this.timeout(90_000);
  let server: TestServer;
  let numbers: number[];
  const sockets: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer({ WORLDS_MIN: '2', ...VOICE });
    const listed = await call(server, 'GET', '/api/v1/worlds');
    numbers = listed.body.worlds.map((w: { world: number }) => w.world);
    assert.equal(numbers.length, 2, JSON.stringify(listed.body));
  });

  after(async () => {
    await leaveWorlds(sockets);
    await server?.close();
  });

  async function enter(world: number, at?: { x: number; z: number }): Promise<InWorld> {
    const account = await anonymousAccount(server);
    const { id: characterId } = await createCharacterRow(server, account.accountId, at);
    const socket = await JsonWsClient.connect(server.wsUrl);
    sockets.push(socket);
    socket.send('authenticate', { token: account.token });
    assert.equal((await socket.waitFor('authResult')).data.success, true);
    socket.send('world:enter', { characterId, world });
    const joined = await socket.waitFor('world:joined');
    assert.equal(joined.data.world, world);
    return { account, characterId, socket };
  }

  it('GET /api/v1/world answers for the caller\'s world, or ?world=N, with that world\'s players', async () => {
    const [first, second] = numbers;
    const inFirst = await enter(first);
    const inSecond = await enter(second);
    const room = (n: number) => worldNumbered(server.context, n)!.roomId;

    const mine = await call(server, 'GET', '/api/v1/world', inSecond.account.token);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.deepEqual([mine.body.world, mine.body.worldId, mine.body.playersOnline], [second, room(second), 1]);
    const theirs = await call(server, 'GET', '/api/v1/world', inFirst.account.token);
    assert.deepEqual([theirs.body.world, theirs.body.worldId, theirs.body.playersOnline], [first, room(first), 1]);

    // A token bound to the character (select) finds it the same way.
    const selected = await call(server, 'POST', `/api/character/${inSecond.characterId}/select`, inSecond.account.token);
    assert.equal(selected.status, 200, JSON.stringify(selected.body));
    assert.equal((await call(server, 'GET', '/api/v1/world', selected.body.token)).body.world, second);

    const named = await call(server, 'GET', `/api/v1/world?world=${first}`, inSecond.account.token);
    assert.deepEqual([named.status, named.body.world, named.body.worldId], [200, first, room(first)]);

    // Nobody in a world: the lowest-numbered one.
    const stranger = await anonymousAccount(server);
    assert.equal((await call(server, 'GET', '/api/v1/world', stranger.token)).body.world, Math.min(...numbers));

    const unknown = await call(server, 'GET', '/api/v1/world?world=99', stranger.token);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'WORLD_NOT_FOUND');
    assert.equal((await call(server, 'GET', '/api/v1/world?world=zero', stranger.token)).body.code, 'VALIDATION_FAILED');
  });

  it('an agent goal set over REST drives its character in world 2, stepped by that world only', async () => {
    const second = numbers[1];
    // A player in the other world, so both worlds tick with players in them.
    await enter(numbers[0], { x: 100, z: 95 });
    const { account, characterId, socket } = await enter(second, { x: 100, z: 95 });
    const { agentId } = await registerAgent(server, account.token, characterId);

    const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, account.token, { type: 'travel', areaId: 'brackenford_bank' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.goal.status, 'active');
    assert.equal(set.body.characterOnline, true);
    const goalId = set.body.goal.id;
    // World 2's player:move handler answered the character's own connection.
    await socket.waitFor('player:path', (data) => Array.isArray(data.path) && data.path.length > 0, 10_000);

    // The other world's tick does not take the character for absent: the running goal never reads as waiting.
    const seen = new Set<string>();
    for (let i = 0; i < 8; i += 1) {
      const state = await call(server, 'GET', `/api/agents/${agentId}/goal`, account.token);
      if (state.body.goal?.id === goalId) seen.add(state.body.goal.status);
      await sleep(170);
    }
    assert.equal(seen.has('waiting'), false, `statuses seen: ${[...seen].join(', ')}`);

    const done = await eventually(async () => {
      const state = await call(server, 'GET', `/api/agents/${agentId}/goal`, account.token);
      return [state.body.goal, ...state.body.recentGoals].find((g) => g?.id === goalId && g.endedAt) ?? undefined;
    }, 30_000, 'the travel goal to end');
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const position = await call(server, 'GET', `/api/characters/${characterId}/position`, account.token);
    assert.deepEqual([position.body.source, position.body.areaId], ['live', 'brackenford_bank']);
    assert.ok(worldNumbered(server.context, second)!.player(characterId), 'it is still in world 2');
  });

  it('the voice grant of a character in world 2 names world 2\'s room', async () => {
    const second = numbers[1];
    const { account, characterId } = await enter(second);
    const response = await call(server, 'POST', '/api/voice/token', account.token);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const roomId = worldNumbered(server.context, second)!.roomId;
    assert.notEqual(roomId, worldNumbered(server.context, numbers[0])!.roomId);
    assert.equal(response.body.room, roomId);
    assert.equal(response.body.identity, characterId);
    assert.equal((decodeJwt(response.body.token).video as { room: string }).room, roomId);
  });
});

describe(`a world that closes leaves the running worlds (${databaseUnderTest()}) @db`, function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ WORLD_CAPACITY: '1', WORLDS_MIN: '1', WORLD_IDLE_CLOSE_SECONDS: '1' });
  });
  after(() => server?.close());

  it('is found by number while it runs, and is WORLD_NOT_FOUND once it closed empty', async () => {
    const enter = async () => {
      const account = await anonymousAccount(server);
      const { id: characterId } = await createCharacterRow(server, account.accountId);
      const socket = await JsonWsClient.connect(server.wsUrl);
      socket.send('authenticate', { token: account.token });
      await socket.waitFor('authResult');
      socket.send('world:enter', { characterId });
      return { account, socket, world: (await socket.waitFor('world:joined')).data.world as number };
    };
    const first = await enter();
    const second = await enter();
    assert.notEqual(second.world, first.world, 'a world of one seat is full');
    assert.equal((await call(server, 'GET', '/api/v1/world', second.account.token)).body.world, second.world);
    second.socket.send('world:leave');
    await second.socket.waitFor('world:left');
    second.socket.close();
    await eventually(async () => (worldNumbered(server.context, second.world) ? undefined : true), 15_000, 'the empty world to close');
    const gone = await call(server, 'GET', `/api/v1/world?world=${second.world}`, first.account.token);
    assert.deepEqual([gone.status, gone.body.code], [404, 'WORLD_NOT_FOUND']);
    assert.equal((await call(server, 'GET', '/api/v1/world', first.account.token)).body.world, first.world);
    first.socket.close();
  });
});
