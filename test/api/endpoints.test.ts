/**
 * Every REST endpoint of the game API: its success, and 400, 401, 403 and 404 (where the endpoint names a
 * resource) as problem documents with codes. 429 is covered in rate-limit.test.ts.
 */
import assert from 'node:assert/strict';
import { uniqueName } from '../helpers/database.ts';
import { json } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { accountWithCharacter, call, registerAgent, suspendedToken, type Call } from './support.ts';
import { createCharacterRow } from '../helpers/players.ts';

interface Endpoint {
  method: string;
  /** {char} {char2} {charDel} {agent} {agentDel} are replaced with the fixture ids. */
  path: string;
  body?: unknown;
  ok: number;
  /** Checks the success body. */
  check?: (call: Call) => void;
  /** A variant naming an unknown resource (path or body) → 404 with this code. */
  notFound?: { path?: string; body?: unknown; code: string };
  /** A variant with a bad body or path parameter → 400. */
  invalid?: { path?: string; body?: unknown; code?: string };
  /** Account B acting on account A's resource → 403 with this code. */
  foreign?: string;
  /** Accepts agent tokens? (false: 403 INSUFFICIENT_SCOPE for them). */
  agentScope?: boolean;
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/v1/player', ok: 200, agentScope: true, check: ({ body }) => {
    assert.equal(typeof body.accountId, 'string');
    assert.ok(Array.isArray(body.characters) && body.characters.length >= 1);
    assert.ok(body.characters.every((c: { active: boolean }) => typeof c.active === 'boolean'));
  } },
  { method: 'POST', path: '/api/v1/player', body: { displayName: 'Ava Stone', avatar: 'knight' }, ok: 200, agentScope: false,
    invalid: { body: { displayName: ' x' } }, check: ({ body }) => {
      assert.equal(body.displayName, 'Ava Stone');
      assert.equal(body.avatar, 'knight');
    } },
  { method: 'GET', path: '/api/v1/world', ok: 200, agentScope: true, check: ({ body }) => {
    assert.equal(typeof body.worldId, 'string');
    assert.ok(body.tick >= 0 && typeof body.time === 'string' && body.playersOnline >= 0);
    assert.ok(body.areas.some((a: { id: string }) => a.id === 'brackenford'));
  } },
  { method: 'GET', path: '/api/v1/world/areas', ok: 200, agentScope: true, check: ({ body }) => {
    assert.equal(body.total, body.areas.length);
    assert.deepEqual(body.areas.find((a: { id: string }) => a.id === 'brackenford_bank').bounds, { minX: 104, minZ: 84, maxX: 111, maxZ: 89 });
  } },
  { method: 'GET', path: '/api/characters/{char}/skills', ok: 200, agentScope: true, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/characters/${UNKNOWN}/skills`, code: 'CHARACTER_NOT_FOUND' }, invalid: { path: '/api/characters/bad!id/skills' },
    check: ({ body }) => {
      assert.equal(Object.keys(body.skills).length, 17);
      assert.deepEqual(body.skills.constitution, { level: 10, experience: 1154 });
      assert.deepEqual(body.skills.woodcutting, { level: 1, experience: 0 });
    } },
  { method: 'GET', path: '/api/characters/{char}/position', ok: 200, agentScope: true, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/characters/${UNKNOWN}/position`, code: 'CHARACTER_NOT_FOUND' }, invalid: { path: `/api/characters/${'x'.repeat(65)}/position` },
    check: ({ body }) => {
      assert.equal(body.online, false);
      assert.equal(body.source, 'saved');
      assert.deepEqual([body.x, body.z, body.areaId], [100, 100, 'brackenford']);
    } },
  { method: 'GET', path: '/api/character', ok: 200, agentScope: false, invalid: { path: '/api/character?limit=0' }, check: ({ body }) => {
    assert.ok(body.items.length >= 1 && body.total >= body.items.length && body.limit === 20 && body.offset === 0);
  } },
  { method: 'POST', path: '/api/character', body: { name: '{newName}', templateId: 'warrior' }, ok: 201, agentScope: false,
    notFound: { body: { name: '{newName2}', templateId: 'no_such_kit' }, code: 'TEMPLATE_NOT_FOUND' },
    invalid: { body: { name: 'bad  name!' }, code: 'INVALID_NAME' }, check: ({ body, headers }) => {
      assert.equal(body.combatLevel > 3, true);
      assert.equal(headers.get('location'), `/api/character/${body.id}`);
    } },
  { method: 'GET', path: '/api/character/{char}', ok: 200, agentScope: false, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/character/${UNKNOWN}`, code: 'CHARACTER_NOT_FOUND' }, invalid: { path: '/api/character/a.b' } },
  { method: 'DELETE', path: '/api/character/{charDel}', ok: 204, agentScope: false, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/character/${UNKNOWN}`, code: 'CHARACTER_NOT_FOUND' }, invalid: { path: '/api/character/%20' } },
  { method: 'POST', path: '/api/character/{char}/select', ok: 200, agentScope: false, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/character/${UNKNOWN}/select`, code: 'CHARACTER_NOT_FOUND' }, invalid: { path: '/api/character/a$b/select' },
    check: ({ body }) => assert.equal(body.tokenType, 'Bearer') },
  { method: 'GET', path: '/api/player/inventory?characterId={char}', ok: 200, agentScope: true, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/player/inventory?characterId=${UNKNOWN}`, code: 'CHARACTER_NOT_FOUND' },
    check: ({ body }) => assert.deepEqual([body.capacity, body.slots.length], [28, 28]) },
  { method: 'GET', path: '/api/player/equipment?characterId={char}', ok: 200, agentScope: true, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/player/equipment?characterId=${UNKNOWN}`, code: 'CHARACTER_NOT_FOUND' },
    check: ({ body }) => assert.equal(body.slots.weapon, null) },
  { method: 'GET', path: '/api/player/bank?characterId={char}', ok: 200, agentScope: true, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/player/bank?characterId=${UNKNOWN}`, code: 'CHARACTER_NOT_FOUND' },
    check: ({ body }) => assert.deepEqual([body.items, body.total, body.nextOffset], [[], 0, null]) },
  { method: 'GET', path: '/api/player/friends?characterId={char}', ok: 200, agentScope: true, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/player/friends?characterId=${UNKNOWN}`, code: 'CHARACTER_NOT_FOUND' },
    check: ({ body }) => assert.deepEqual([body.items, body.total], [[], 0]) },
  { method: 'GET', path: '/api/player/quests?characterId={char}', ok: 200, agentScope: true, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { path: `/api/player/quests?characterId=${UNKNOWN}`, code: 'CHARACTER_NOT_FOUND' },
    check: ({ body }) => assert.deepEqual([body.questPoints, body.completed, body.quests.map((q: { status: string }) => q.status)], [0, 0, ['not-started', 'not-started', 'not-started']]) },
  { method: 'GET', path: '/api/template', ok: 200, agentScope: true, check: ({ body }) => {
    assert.ok(body.templates.some((t: { id: string }) => t.id === 'warrior'));
  } },
  { method: 'GET', path: '/api/template/warrior', ok: 200, agentScope: true,
    notFound: { path: '/api/template/no_such_kit', code: 'TEMPLATE_NOT_FOUND' }, invalid: { path: '/api/template/War!rior' },
    check: ({ body }) => assert.equal(body.equipment.weapon.itemId, 'bronze_sword') },
  { method: 'POST', path: '/api/agent', body: { characterId: '{char2}' }, ok: 201, agentScope: false, foreign: 'CHARACTER_NOT_OWNED',
    notFound: { body: { characterId: UNKNOWN }, code: 'CHARACTER_NOT_FOUND' }, invalid: { body: { characterId: '{char2}', ttlSeconds: 1 } },
    check: ({ body }) => {
      assert.equal(body.scope, 'agent');
      assert.ok(new Date(body.expiresAt).getTime() > Date.now());
    } },
  { method: 'GET', path: '/api/agent', ok: 200, agentScope: false, invalid: { path: '/api/agent?includeRevoked=yes' },
    check: ({ body }) => assert.ok(body.items.length >= 1) },
  { method: 'GET', path: '/api/agent/{agent}', ok: 200, agentScope: true, foreign: 'AGENT_NOT_OWNED',
    notFound: { path: `/api/agent/${UNKNOWN}`, code: 'AGENT_NOT_FOUND' }, invalid: { path: '/api/agent/x.y' } },
  { method: 'DELETE', path: '/api/agent/{agentDel}', ok: 200, agentScope: true, foreign: 'AGENT_NOT_OWNED',
    notFound: { path: `/api/agent/${UNKNOWN}`, code: 'AGENT_NOT_FOUND' }, invalid: { path: '/api/agent/x.y' },
    check: ({ body }) => assert.equal(typeof body.revokedAt, 'string') },
  { method: 'GET', path: '/api/agents/{agent}/goal', ok: 200, agentScope: true, foreign: 'AGENT_NOT_OWNED',
    notFound: { path: `/api/agents/${UNKNOWN}/goal`, code: 'AGENT_NOT_FOUND' }, invalid: { path: '/api/agents/x.y/goal' },
    check: ({ body }) => {
      assert.deepEqual(Object.keys(body).filter((k) => ['success', 'goal', 'goalsPaused', 'availableGoals'].includes(k)).sort(), ['availableGoals', 'goal', 'goalsPaused', 'success']);
      assert.ok(body.availableGoals.some((g: { id: string; available: boolean }) => g.id === 'travel:brackenford_bank' && g.available));
      assert.ok(body.availableGoals.some((g: { type: string; available: boolean; unavailableCode: string }) => g.type === 'gather' && !g.available && g.unavailableCode === 'NO_TOOL'));
      // A new character: no tool, so training is offered one level up but unavailable, with the code POST would answer.
      assert.ok(body.availableGoals.some((g: { type: string; available: boolean }) => g.type === 'kill' && g.available));
      const training = body.availableGoals.find((g: { id: string }) => g.id === 'train_skill:woodcutting:2');
      assert.deepEqual([training?.available, training?.unavailableCode], [false, 'NO_TOOL']);
      const bank = body.availableGoals.find((g: { type: string }) => g.type === 'bank_inventory');
      assert.deepEqual([bank?.available, bank?.unavailableCode], [false, 'NOTHING_TO_BANK']);
    } },
  { method: 'POST', path: '/api/agents/{agent}/goal', body: { goalId: 'travel:brackenford_bank' }, ok: 200, agentScope: true, foreign: 'AGENT_NOT_OWNED',
    notFound: { body: { type: 'travel', areaId: 'atlantis' }, code: 'AREA_NOT_FOUND' }, invalid: { body: { type: 'teleport' } },
    check: ({ body }) => {
      assert.equal(body.goal.spec.areaId, 'brackenford_bank');
      assert.equal(body.goal.status, 'waiting'); // the character is offline
    } },
  { method: 'POST', path: '/api/agents/{agent}/goal/stop', ok: 200, agentScope: true, foreign: 'AGENT_NOT_OWNED',
    notFound: { path: `/api/agents/${UNKNOWN}/goal/stop`, code: 'AGENT_NOT_FOUND' }, invalid: { path: '/api/agents/x.y/goal/stop' },
    check: ({ body }) => assert.deepEqual([body.success, body.goalsPaused, body.goal], [true, true, null]) },
  { method: 'POST', path: '/api/agents/{agent}/goal/resume', ok: 200, agentScope: true, foreign: 'AGENT_NOT_OWNED',
    notFound: { path: `/api/agents/${UNKNOWN}/goal/resume`, code: 'AGENT_NOT_FOUND' }, invalid: { path: '/api/agents/x.y/goal/resume' },
    check: ({ body }) => assert.deepEqual([body.success, body.goalsPaused], [true, false]) },
  { method: 'POST', path: '/api/agents/{agent}/message', body: { message: 'travel Brackenford Bank' }, ok: 200, agentScope: true, foreign: 'AGENT_NOT_OWNED',
    notFound: { path: `/api/agents/${UNKNOWN}/message`, code: 'AGENT_NOT_FOUND' }, invalid: { body: { message: '' } },
    check: ({ body }) => {
      assert.equal(body.handledBy, 'builtin');
      assert.equal(body.goal.spec.areaId, 'brackenford_bank');
    } },
  { method: 'GET', path: '/api/agents/{agent}/quick-actions', ok: 200, agentScope: true, foreign: 'AGENT_NOT_OWNED',
    notFound: { path: `/api/agents/${UNKNOWN}/quick-actions`, code: 'AGENT_NOT_FOUND' }, invalid: { path: '/api/agents/x.y/quick-actions' },
    check: ({ body }) => assert.ok(body.actions.some((a: { id: string }) => a.id === 'stop')) },
  { method: 'GET', path: '/api/agents/mapping/{agent}', ok: 200, agentScope: true, foreign: 'AGENT_NOT_OWNED',
    notFound: { path: `/api/agents/mapping/${UNKNOWN}`, code: 'AGENT_NOT_FOUND' }, invalid: { path: '/api/agents/mapping/x.y' },
    check: ({ body }) => assert.equal(body.revoked, false) },
];

function withQuery(path: string, extra: string): string {
  return path.includes('?') ? `${path}&${extra}` : `${path}?${extra}`;
}

function assertProblem(result: Call, status: number, code?: string): void {
  assert.equal(result.status, status, JSON.stringify(result.body));
  assert.equal(result.headers.get('content-type')?.startsWith('application/problem+json'), true);
  assert.equal(result.body.status, status);
  assert.match(result.body.code, /^[A-Z_]+$/);
  if (code) assert.equal(result.body.code, code);
}

describe('REST API endpoints @db', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  let a: { token: string; accountId: string; characterId: string };
  let b: { token: string; accountId: string; characterId: string };
  let suspended: string;
  const agentTokens: Record<string, string> = {};

  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_m, key: string) => ids[key] ?? `{${key}}`);
  const fillBody = (body: unknown) => (body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body))));

  before(async () => {
    server = await startTestServer();
    a = await accountWithCharacter(server);
    b = await accountWithCharacter(server);
    suspended = await suspendedToken(server);
    ids.char = a.characterId;
    ids.char2 = (await createCharacterRow(server, a.accountId)).id;
    ids.charDel = (await createCharacterRow(server, a.accountId)).id;
    ids.newName = uniqueName('n');
    ids.newName2 = uniqueName('n');
    const agent = await registerAgent(server, a.token, a.characterId);
    ids.agent = agent.agentId;
    agentTokens.a = agent.agentToken;
    const doomed = await registerAgent(server, a.token, (await createCharacterRow(server, a.accountId)).id);
    ids.agentDel = doomed.agentId;
    // B's resources, to check that A cannot reach them either way round.
    ids.bAgent = (await registerAgent(server, b.token, b.characterId)).agentId;
  });

  after(async () => {
    await server?.close();
  });

  for (const endpoint of ENDPOINTS) {
    const label = `${endpoint.method} ${endpoint.path}`;

    describe(label, () => {
      it('401 without a token, 403 for an account without the player role', async () => {
        assertProblem(await call(server, endpoint.method, fill(endpoint.path), undefined, fillBody(endpoint.body)), 401, 'AUTH_REQUIRED');
        assertProblem(await call(server, endpoint.method, fill(endpoint.path), 'not-a-jwt', fillBody(endpoint.body)), 401, 'TOKEN_INVALID');
        assertProblem(await call(server, endpoint.method, fill(endpoint.path), suspended, fillBody(endpoint.body)), 403, 'INSUFFICIENT_ROLE');
      });

      it('400 for unknown query parameters and invalid input', async () => {
        assertProblem(await call(server, endpoint.method, withQuery(fill(endpoint.path), 'bogus=1'), a.token, fillBody(endpoint.body)), 400, 'VALIDATION_FAILED');
        if (endpoint.invalid) {
          const result = await call(server, endpoint.method, fill(endpoint.invalid.path ?? endpoint.path), a.token, fillBody(endpoint.invalid.body ?? endpoint.body));
          assertProblem(result, 400, endpoint.invalid.code ?? 'VALIDATION_FAILED');
          if (!endpoint.invalid.code) assert.ok(result.body.errors.length >= 1);
        }
      });

      if (endpoint.notFound) {
        it(`404 ${endpoint.notFound.code} for an unknown id`, async () => {
          const variant = endpoint.notFound!;
          assertProblem(await call(server, endpoint.method, fill(variant.path ?? endpoint.path), a.token, fillBody(variant.body ?? endpoint.body)), 404, variant.code);
        });
      }

      if (endpoint.foreign) {
        it(`403 ${endpoint.foreign} with another account's token`, async () => {
          assertProblem(await call(server, endpoint.method, fill(endpoint.path), b.token, fillBody(endpoint.body)), 403, endpoint.foreign);
        });
      }

      if (endpoint.agentScope === false) {
        it('403 INSUFFICIENT_SCOPE with an agent token', async () => {
          assertProblem(await call(server, endpoint.method, fill(endpoint.path), agentTokens.a, fillBody(endpoint.body)), 403, 'INSUFFICIENT_SCOPE');
        });
      }

      it(`${endpoint.ok} on success`, async () => {
        const result = await call(server, endpoint.method, fill(endpoint.path), a.token, fillBody(endpoint.body));
        assert.equal(result.status, endpoint.ok, JSON.stringify(result.body));
        assert.equal(result.headers.get('cache-control'), 'no-store');
        endpoint.check?.(result);
      });
    });
  }

  describe('details', () => {
    it('POST /api/character refuses a taken name (any case) with 409 NAME_TAKEN', async () => {
      const first = await call(server, 'POST', '/api/character', a.token, { name: uniqueName('d') });
      assert.equal(first.status, 201);
      assertProblem(await call(server, 'POST', '/api/character', b.token, { name: first.body.name.toUpperCase() }), 409, 'NAME_TAKEN');
    });

    it('a starting kit fills the inventory and equipment of the new character', async () => {
      const created = await call(server, 'POST', '/api/character', b.token, { name: uniqueName('k'), templateId: 'ranger' });
      assert.equal(created.status, 201);
      const inventory = await call(server, 'GET', `/api/player/inventory?characterId=${created.body.id}`, b.token);
      assert.deepEqual(inventory.body.slots[0], { slot: 0, itemId: 'bronze_arrows', name: inventory.body.slots[0].name, quantity: 100 });
      const equipment = await call(server, 'GET', `/api/player/equipment?characterId=${created.body.id}`, b.token);
      assert.equal(equipment.body.slots.weapon.itemId, 'oak_shortbow');
      const skills = await call(server, 'GET', `/api/characters/${created.body.id}/skills`, b.token);
      assert.equal(skills.body.skills.ranged.level, 5);
    });

    it('select marks the active character, and /api/player/* defaults to it', async () => {
      const selected = await call(server, 'POST', `/api/character/${b.characterId}/select`, b.token);
      assert.equal(selected.status, 200);
      const player = await call(server, 'GET', '/api/v1/player', b.token);
      assert.equal(player.body.activeCharacterId, b.characterId);
      assert.equal(player.body.characters.find((c: { id: string }) => c.id === b.characterId).active, true);
      const inventory = await call(server, 'GET', '/api/player/inventory', b.token);
      assert.equal(inventory.body.characterId, b.characterId);
      const fresh = await accountWithCharacter(server);
      assertProblem(await call(server, 'GET', '/api/player/inventory', fresh.token), 400, 'CHARACTER_REQUIRED');
    });

    it('lists paginate with limit and offset', async () => {
      const first = await call(server, 'GET', '/api/character?limit=1&offset=0', a.token);
      assert.equal(first.body.items.length, 1);
      assert.equal(first.body.nextOffset, 1);
      const second = await call(server, 'GET', `/api/character?limit=1&offset=${first.body.nextOffset}`, a.token);
      assert.notEqual(second.body.items[0].id, first.body.items[0].id);
    });

    it('an agent token reads its own character only', async () => {
      const own = await call(server, 'GET', `/api/characters/${a.characterId}/skills`, agentTokens.a);
      assert.equal(own.status, 200);
      assertProblem(await call(server, 'GET', `/api/characters/${ids.char2}/skills`, agentTokens.a), 403, 'CHARACTER_NOT_OWNED');
      assertProblem(await call(server, 'GET', `/api/agents/${ids.bAgent}/goal`, agentTokens.a), 403, 'AGENT_NOT_OWNED');
    });

    it('a second agent for the same character is refused with 409 until the first is revoked', async () => {
      assertProblem(await call(server, 'POST', '/api/agent', a.token, { characterId: a.characterId }), 409, 'AGENT_ALREADY_REGISTERED');
    });

    it('goals the character cannot pursue now are 409 with a code; unknown targets 404; bad goal bodies 400', async () => {
      const goal = (body: unknown) => call(server, 'POST', `/api/agents/${ids.agent}/goal`, a.token, body);
      // 409: the goal is well-formed, but not for this character or executor now.
      assertProblem(await goal({ type: 'bank_inventory' }), 409, 'NOTHING_TO_BANK');
      assertProblem(await goal({ type: 'train_skill', skill: 'attack', targetLevel: 5 }), 409, 'SKILL_NOT_TRAINABLE');
      assertProblem(await goal({ type: 'train_skill', skill: 'woodcutting', targetLevel: 5 }), 409, 'NO_TOOL');
      assertProblem(await goal({ type: 'train_skill', skill: 'constitution', targetLevel: 10 }), 409, 'SKILL_NOT_TRAINABLE');
      assertProblem(await goal({ type: 'kill', npcId: 'osric', count: 1 }), 409, 'NPC_NOT_ATTACKABLE');
      assertProblem(await goal({ type: 'gather', skill: 'mining', itemId: 'iron_ore', quantity: 1 }), 409, 'LEVEL_TOO_LOW');
      // 404: unknown manifest ids.
      assertProblem(await goal({ type: 'gather', skill: 'woodcutting', itemId: 'raw_shrimp', quantity: 5 }), 404, 'ITEM_NOT_GATHERABLE');
      assertProblem(await goal({ type: 'kill', npcId: 'dragon', count: 1 }), 404, 'NPC_NOT_FOUND');
      assertProblem(await goal({ goalId: 'nope' }), 404, 'GOAL_NOT_FOUND');
      // 400: malformed goals, each naming the offending field.
      for (const [body, field] of [
        [{ type: 'train_skill', skill: 'woodcutting', targetLevel: 100 }, 'targetLevel'],
        [{ type: 'train_skill', skill: 'woodcutting', targetLevel: 1 }, 'targetLevel'],
        [{ type: 'train_skill', skill: 'juggling', targetLevel: 5 }, 'skill'],
        [{ type: 'kill', npcId: 'chicken', count: 0 }, 'count'],
        [{ type: 'kill', npcId: 'Chicken!', count: 1 }, 'npcId'],
        [{ type: 'kill', count: 1 }, 'npcId'],
        [{ type: 'bank_inventory', quantity: 3 }, ''],
      ] as Array<[unknown, string]>) {
        const result = await goal(body);
        assertProblem(result, 400, 'VALIDATION_FAILED');
        assert.ok(result.body.errors.some((e: { in: string; path: string }) => e.in === 'body' && e.path.includes(field)), `${JSON.stringify(body)}: ${JSON.stringify(result.body.errors)}`);
      }
      // Nothing was set by any of them.
      const state = await call(server, 'GET', `/api/agents/${ids.agent}/goal`, a.token);
      assert.notEqual(state.body.goal?.type, 'kill');
    });

    it('built-in message commands set train, kill and bank goals, and reply with the refusal when there is one', async () => {
      const say = async (message: string) => (await call(server, 'POST', `/api/agents/${ids.agent}/message`, a.token, { message })).body;
      assert.match((await say('train attack')).reply, /SKILL_NOT_TRAINABLE/);
      assert.match((await say('train woodcutting')).reply, /NO_TOOL/);
      assert.match((await say('bank')).reply, /NOTHING_TO_BANK/);
      assert.match((await say('kill 2 bankers')).reply, /NPC_NOT_FOUND/);
      const kill = await say('kill 3 chickens');
      assert.deepEqual([kill.handledBy, kill.goal.spec, kill.goal.status], ['builtin', { type: 'kill', npcId: 'chicken', count: 3 }, 'waiting']);
    });

    it('malformed JSON is 400 MALFORMED_JSON', async () => {
      const response = await fetch(`${server.baseUrl}/api/v1/player`, {
        method: 'POST', headers: { Authorization: `Bearer ${a.token}`, 'Content-Type': 'application/json' }, body: '{"displayName":',
      });
      assert.equal(response.status, 400);
      assert.equal((await json(response)).code, 'MALFORMED_JSON');
    });
  });
});
