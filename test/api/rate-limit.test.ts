/** Every REST endpoint of the game API answers 429 RATE_LIMITED (with Retry-After) once the address is over the limit. */
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { accountWithCharacter, call, registerAgent } from './support.ts';

const ID = '00000000-0000-4000-8000-000000000000';

const ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/api/v1/player'], ['POST', '/api/v1/player', { avatar: 'knight' }], ['GET', '/api/v1/world'], ['GET', '/api/v1/world/areas'],
  ['GET', '/api/characters/{char}/skills'], ['GET', '/api/characters/{char}/position'],
  ['GET', '/api/character'], ['POST', '/api/character', { name: 'Rate Limited' }], ['GET', '/api/character/{char}'],
  ['DELETE', `/api/character/${ID}`], ['POST', '/api/character/{char}/select'],
  ['GET', '/api/player/inventory'], ['GET', '/api/player/equipment'], ['GET', '/api/player/bank'], ['GET', '/api/player/friends'], ['GET', '/api/player/quests'],
  ['GET', '/api/template'], ['GET', '/api/template/warrior'],
  ['POST', '/api/agent', { characterId: '{char}' }], ['GET', '/api/agent'], ['GET', '/api/agent/{agent}'], ['DELETE', '/api/agent/{agent}'],
  ['GET', '/api/agents/{agent}/goal'], ['POST', '/api/agents/{agent}/goal', { goalId: 'travel:brackenford' }],
  ['POST', '/api/agents/{agent}/goal/stop'], ['POST', '/api/agents/{agent}/goal/resume'], ['POST', '/api/agents/{agent}/message', { message: 'say hi' }],
  ['GET', '/api/agents/{agent}/quick-actions'], ['GET', '/api/agents/mapping/{agent}'], ['GET', '/api/openapi.json'],
];

describe('REST API rate limit @db', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ RATE_LIMIT_REST_PER_MINUTE: '6' });
  });

  after(async () => {
    await server?.close();
  });

  it('answers 429 RATE_LIMITED with Retry-After on every endpoint once the limit is spent', async () => {
    const owner = await accountWithCharacter(server); // 1 request
    const { agentId } = await registerAgent(server, owner.token, owner.characterId); // 2
    const fill = (text: string) => text.replace('{char}', owner.characterId).replace('{agent}', agentId);
    let status = 200;
    for (let i = 0; i < 10 && status !== 429; i++) status = (await call(server, 'GET', '/api/v1/player', owner.token)).status;
    assert.equal(status, 429);
    for (const [method, path, body] of ROUTES) {
      const result = await call(server, method, fill(path), owner.token, body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body))));
      assert.equal(result.status, 429, `${method} ${path}`);
      assert.equal(result.body.code, 'RATE_LIMITED');
      assert.ok(Number(result.headers.get('retry-after')) >= 1);
    }
  });
});
