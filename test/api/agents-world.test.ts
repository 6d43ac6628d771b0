/**
 * Agent goal control against the live world: the executor walks the character through the room's own
 * player:move handler, stop cancels the path within a tick and pauses automatic goals while chat keeps working,
 * resume brings autonomous selection back; ownership across accounts; revoked agent tokens are refused.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setSkillsRng } from '../../rooms/world/features/skills/activity.ts';
import { worldOf } from '../../rooms/world/running-world.ts';
import { runItemTransaction } from '../../src/db/item-transaction.ts';
import { jsonPlayer, leaveWorlds, visibleEntities } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { accountWithCharacter, call, eventually, registerAgent, sleep } from './support.ts';

const TICK = 600;

/** Puts a bronze hatchet in the character's first inventory slot (a woodcutting goal needs one). */
async function giveHatchet(server: TestServer, characterId: string): Promise<void> {
  await runItemTransaction(server.context.db, [characterId], async (_tx, loaded) => {
    const inventory = [...loaded.get(characterId)!.inventory];
    inventory[0] = { itemId: 'bronze_hatchet', quantity: 1 };
    return { value: null, write: new Map([[characterId, { ...loaded.get(characterId)!, inventory }]]) };
  });
}

describe('Agent goal control in the world @db', () => {
  let server: TestServer;
  const sockets: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer();
  });

  after(async () => {
    await leaveWorlds(sockets);
    await server?.close();
  });

  async function onlineAgent(at?: { x: number; z: number }) {
    const owner = await accountWithCharacter(server, at);
    const socket = await jsonPlayer(server, owner, owner.characterId);
    sockets.push(socket);
    const agent = await registerAgent(server, owner.token, owner.characterId);
    return { owner, socket, ...agent };
  }

  it('a travel goal completes through real movement (player:move on the character\'s connection)', async () => {
    const { owner, socket, agentId } = await onlineAgent({ x: 100, z: 95 });
    const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, owner.token, { type: 'travel', areaId: 'brackenford_bank' });
    assert.equal(set.status, 200);
    assert.equal(set.body.goal.status, 'active');
    assert.equal(set.body.goal.source, 'user');
    const goalId = set.body.goal.id;
    // The room's own player:move handler answered the character's connection with the planned path.
    await socket.waitFor('player:path', (data) => Array.isArray(data.path) && data.path.length > 0);
    const done = await eventually(async () => {
      const state = await call(server, 'GET', `/api/agents/${agentId}/goal`, owner.token);
      const ended = [state.body.goal, ...state.body.recentGoals].find((g) => g?.id === goalId && g.endedAt);
      return ended ?? undefined;
    }, 20_000, 'the travel goal to end');
    assert.equal(done.status, 'completed');
    assert.equal(done.progress.percent, 100);
    const position = await call(server, 'GET', `/api/characters/${owner.characterId}/position`, owner.token);
    assert.equal(position.body.source, 'live');
    assert.equal(position.body.areaId, 'brackenford_bank');
  });

  it('stop cancels the path within a tick, blocks automatic goals, chat still works; resume picks a goal again', async () => {
    const { owner, socket, agentId, agentToken } = await onlineAgent();
    const world = worldOf(server.context)!;
    // A long walk, set by the agent itself.
    const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, agentToken, { type: 'travel', areaId: 'greystone_quarry' });
    assert.equal(set.status, 200);
    await eventually(async () => ((world.player(owner.characterId)?.path.length ?? 0) > 3 ? true : undefined), 5_000, 'walking');
    await sleep(TICK * 2);

    const stop = await call(server, 'POST', `/api/agents/${agentId}/goal/stop`, owner.token);
    assert.equal(stop.status, 200);
    assert.deepEqual([stop.body.success, stop.body.goalsPaused, stop.body.goal], [true, true, null]);
    assert.equal(stop.body.recentGoals[0].status, 'stopped');
    const player = world.player(owner.characterId)!;
    assert.equal(player.path.length, 0, 'the path is cancelled at once');
    const stoppedAt = { x: player.x, z: player.z };

    // Observers (here the character's own socket, which sees itself) hear it stopped on the next tick.
    await socket.next('world:update', (data) => data.changed.some((e: { id: string; action: string }) => e.id === owner.characterId && e.action === 'idle'), TICK * 3);
    const seen = visibleEntities(socket).get(`player:${owner.characterId}`)!;
    assert.deepEqual({ x: seen.x, z: seen.z }, stoppedAt);

    // Paused: no automatic goal and no movement over several ticks.
    await sleep(TICK * 5);
    assert.deepEqual({ x: player.x, z: player.z }, stoppedAt);
    const idle = await call(server, 'GET', `/api/agents/${agentId}/goal`, owner.token);
    assert.deepEqual([idle.body.goal, idle.body.goalsPaused], [null, true]);

    // Chat still works while paused.
    const chat = await call(server, 'POST', `/api/agents/${agentId}/message`, owner.token, { message: 'say hello from a paused agent' });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    assert.deepEqual(chat.body.chat, { sent: true, message: 'hello from a paused agent' });
    await socket.waitFor('chat:message', (data) => data.message === 'hello from a paused agent' && data.fromId === owner.characterId);

    const resume = await call(server, 'POST', `/api/agents/${agentId}/goal/resume`, owner.token);
    assert.deepEqual([resume.status, resume.body.goalsPaused], [200, false]);
    const picked = await eventually(async () => {
      const state = await call(server, 'GET', `/api/agents/${agentId}/goal`, owner.token);
      return state.body.goal?.source === 'auto' ? state.body.goal : undefined;
    }, 6_000, 'an automatic goal');
    assert.equal(picked.type, 'travel');
    await eventually(async () => (player.x !== stoppedAt.x || player.z !== stoppedAt.z ? true : undefined), 6_000, 'moving again');
  });

  it('an agent of account A cannot be read or steered with account B\'s token', async () => {
    const { owner, agentId } = await onlineAgent();
    const intruder = await accountWithCharacter(server);
    const intruderAgent = await registerAgent(server, intruder.token, intruder.characterId);
    for (const token of [intruder.token, intruderAgent.agentToken]) {
      for (const [method, path, body] of [
        ['GET', `/api/agents/${agentId}/goal`], ['POST', `/api/agents/${agentId}/goal`, { goalId: 'travel:brackenford' }],
        ['POST', `/api/agents/${agentId}/goal/stop`], ['POST', `/api/agents/${agentId}/goal/resume`],
        ['POST', `/api/agents/${agentId}/message`, { message: 'say hi' }], ['GET', `/api/agents/${agentId}/quick-actions`],
        ['GET', `/api/agents/mapping/${agentId}`], ['GET', `/api/agent/${agentId}`], ['DELETE', `/api/agent/${agentId}`],
      ] as Array<[string, string, unknown?]>) {
        const result = await call(server, method, path, token, body);
        assert.equal(result.status, 403, `${method} ${path}`);
        assert.equal(result.body.code, 'AGENT_NOT_OWNED');
      }
    }
    const mine = await call(server, 'GET', `/api/agents/mapping/${agentId}`, owner.token);
    assert.deepEqual([mine.status, mine.body.characterId, mine.body.online], [200, owner.characterId, true]);
  });

  it('a revoked agent token is refused on REST and WebSocket; the owner may register a new agent', async () => {
    const owner = await accountWithCharacter(server);
    const { agentId, agentToken } = await registerAgent(server, owner.token, owner.characterId);
    assert.equal((await call(server, 'GET', `/api/agents/${agentId}/goal`, agentToken)).status, 200);
    const revoked = await call(server, 'DELETE', `/api/agent/${agentId}`, owner.token);
    assert.equal(revoked.status, 200);
    for (const path of [`/api/agents/${agentId}/goal`, '/api/v1/player', '/api/auth/me']) {
      const result = await call(server, 'GET', path, agentToken);
      assert.deepEqual([result.status, result.body.code], [401, 'TOKEN_INVALID'], path);
    }
    const socket = await JsonWsClient.connect(server.wsUrl);
    sockets.push(socket);
    socket.send('authenticate', { token: agentToken });
    assert.equal((await socket.closed).code, 4001);
    const owned = await call(server, 'GET', `/api/agents/${agentId}/goal`, owner.token);
    assert.deepEqual([owned.status, owned.body.code], [404, 'AGENT_REVOKED']);
    const again = await call(server, 'POST', '/api/agent', owner.token, { characterId: owner.characterId });
    assert.equal(again.status, 201);
  });

  it('every goal answer shows the goal as set, from the first one: POST goal (paused, then running) and resume', async () => {
    const owner = await accountWithCharacter(server, { x: 74, z: 100 });
    await giveHatchet(server, owner.characterId);
    const socket = await jsonPlayer(server, owner, owner.characterId);
    sockets.push(socket);
    const { agentId } = await registerAgent(server, owner.token, owner.characterId);
    const gather = { type: 'gather', skill: 'woodcutting', itemId: 'logs', quantity: 2 };

    // Paused: the goal waits, and its first answer already counts toward 2 items.
    assert.equal((await call(server, 'POST', `/api/agents/${agentId}/goal/stop`, owner.token)).status, 200);
    const waiting = await call(server, 'POST', `/api/agents/${agentId}/goal`, owner.token, gather);
    assert.equal(waiting.body.goal.status, 'waiting');
    assert.deepEqual(waiting.body.goal.progress, { current: 0, target: 2, unit: 'items', percent: 0 }, 'POST goal answers the target set');
    const resumed = await call(server, 'POST', `/api/agents/${agentId}/goal/resume`, owner.token);
    assert.equal(resumed.body.goal.id, waiting.body.goal.id);
    assert.deepEqual(resumed.body.goal.progress, { current: 0, target: 2, unit: 'items', percent: 0 }, 'resume answers the target set');

    // Running: a new goal's first answer shows its own target too (kills).
    const kill = await call(server, 'POST', `/api/agents/${agentId}/goal`, owner.token, { type: 'kill', npcId: 'chicken', count: 3 });
    assert.equal(kill.status, 200);
    assert.deepEqual(kill.body.goal.progress, { current: 0, target: 3, unit: 'kills', percent: 0 });
    await call(server, 'POST', `/api/agents/${agentId}/goal/stop`, owner.token);
  });

  it('a "chop 5 logs" goal completes through real gathering (player:action on the character\'s connection)', async function () {
    this.timeout(90_000);
    // Woodcutting rolls always succeed; the four trees nearby each give one log and then respawn (30 ticks).
    setSkillsRng(() => 0);
    try {
      const owner = await accountWithCharacter(server, { x: 74, z: 100 });
      await giveHatchet(server, owner.characterId);
      const socket = await jsonPlayer(server, owner, owner.characterId);
      sockets.push(socket);
      const { agentId } = await registerAgent(server, owner.token, owner.characterId);
      const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, owner.token, { type: 'gather', skill: 'woodcutting', itemId: 'logs', quantity: 5 });
      assert.equal(set.status, 200);
      const goalId = set.body.goal.id;
      // The room's gathering feature answered the character's connection: it is the real rule doing the work.
      await socket.waitFor('gather:success', () => true, 20_000);
      const done = await eventually(async () => {
        const state = await call(server, 'GET', `/api/agents/${agentId}/goal`, owner.token);
        return [state.body.goal, ...state.body.recentGoals].find((g) => g?.id === goalId && g.endedAt) ?? undefined;
      }, 75_000, 'the gather goal to end');
      assert.equal(done.status, 'completed');
      assert.deepEqual(done.progress, { current: 5, target: 5, unit: 'items', percent: 100 });
      const inventory = await call(server, 'GET', `/api/player/inventory?characterId=${owner.characterId}`, owner.token);
      const logs = JSON.stringify(inventory.body).match(/"logs"/g)?.length ?? 0;
      assert.ok(logs >= 5, `5 logs in the inventory (${JSON.stringify(inventory.body).slice(0, 300)})`);
    } finally {
      setSkillsRng(Math.random);
    }
  });
});

describe('Agent messages and the AI-agent service @db', () => {
  let service: http.Server;
  const received: unknown[] = [];

  before(async () => {
    service = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ url: req.url, body: JSON.parse(body) });
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ reply: 'on my way', goal: { type: 'travel', areaId: 'meadowbrook_fields' } }));
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    await new Promise((resolve) => service.close(resolve));
  });

  it('forwards messages to AGENT_API_URL and accepts its goal; an unreachable service is 503 AGENT_SERVICE_UNAVAILABLE', async () => {
    const port = (service.address() as AddressInfo).port;
    const server = await startTestServer({ AGENT_API_URL: `http://127.0.0.1:${port}`, AGENT_SERVICE_TIMEOUT_MS: '1000' });
    try {
      const owner = await accountWithCharacter(server);
      const { agentId } = await registerAgent(server, owner.token, owner.characterId);
      const result = await call(server, 'POST', `/api/agents/${agentId}/message`, owner.token, { message: 'go somewhere green' });
      assert.equal(result.status, 200, JSON.stringify(result.body));
      assert.deepEqual([result.body.handledBy, result.body.reply, result.body.goal.source, result.body.goal.spec.areaId], ['service', 'on my way', 'service', 'meadowbrook_fields']);
      assert.equal((received[0] as { url: string }).url, `/api/agents/${agentId}/message`);
      assert.equal((received[0] as { body: { message: string } }).body.message, 'go somewhere green');
    } finally {
      await server.close();
    }
    const down = await startTestServer({ AGENT_API_URL: 'http://127.0.0.1:9', AGENT_SERVICE_TIMEOUT_MS: '1000' });
    try {
      const owner = await accountWithCharacter(down);
      const { agentId } = await registerAgent(down, owner.token, owner.characterId);
      const result = await call(down, 'POST', `/api/agents/${agentId}/message`, owner.token, { message: 'hello?' });
      assert.deepEqual([result.status, result.body.code], [503, 'AGENT_SERVICE_UNAVAILABLE']);
      assert.ok(result.headers.get('retry-after'));
    } finally {
      await down.close();
    }
  });
});
