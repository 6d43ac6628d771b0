/**
 * The entry storm's login (loadtest/lib/storm-entry.ts) against a real server whose only world is full: the first
 * answer and its time, the first place in line, the join once a seat frees; and the out-of-turn count the benchmark
 * judges the drain by.
 */
import assert from 'node:assert/strict';
import { outOfTurn, StormEntry } from '../loadtest/lib/storm-entry.ts';
import { anonymousAccount, createCharacterRow } from './helpers/players.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { JsonWsClient } from './helpers/ws-client.ts';

describe('the entry storm\'s login (load tool)', function () {
  this.timeout(60_000);
  let server: TestServer;
  const bots: StormEntry[] = [];
  let inside: JsonWsClient | undefined;

  before(async () => {
    server = await startTestServer({ WORLD_CAPACITY: '1', WORLDS_MIN: '1' });
  });
  after(async () => {
    for (const bot of bots) bot.stop();
    inside?.close();
    await server?.close();
  });

  async function login(): Promise<{ token: string; characterId: string }> {
    const account = await anonymousAccount(server);
    return { token: account.token, characterId: (await createCharacterRow(server, account.accountId)).id };
  }

  it('records a refusal, a place in line and the join that follows, each with its time', async () => {
    const first = await login();
    inside = await JsonWsClient.connect(server.wsUrl);
    inside.send('authenticate', { token: first.token });
    await inside.waitFor('authResult');
    inside.send('world:enter', { characterId: first.characterId, world: 1 });
    await inside.waitFor('world:joined');

    const queued = new StormEntry('queued', true);
    const refused = new StormEntry('refused', false);
    bots.push(queued, refused);
    await queued.start(server.wsUrl, { ...(await login()), world: 1 }, 10_000);
    await refused.start(server.wsUrl, { ...(await login()), world: 1 }, 10_000);
    assert.equal(queued.outcome.answer, 'queued');
    assert.equal(queued.outcome.firstPosition, 1);
    assert.equal(refused.outcome.answer, 'WORLD_FULL');
    for (const bot of bots) assert.ok(bot.outcome.answerMs! >= 0 && bot.outcome.answerMs! < 10_000);

    assert.equal(await queued.whenJoined(200), false, 'not in while the world is full');
    inside.send('world:leave', {});
    assert.equal(await queued.whenJoined(10_000), true);
    assert.ok(queued.outcome.joinedAt! <= Date.now());
  });

  it('counts out-of-turn joins beyond the window the server lets try at once', () => {
    const served = (order: number[]) => order.map((firstPosition, i) => ({ firstPosition, joinedAt: i }));
    assert.equal(outOfTurn(served([1, 2, 3, 4]), 0), 0);
    assert.equal(outOfTurn(served([2, 1, 3]), 0), 1);
    assert.equal(outOfTurn(served([2, 1, 3]), 1), 0, 'within the window');
    assert.equal(outOfTurn(served([20, 1, 2]), 8), 2);
  });
});
