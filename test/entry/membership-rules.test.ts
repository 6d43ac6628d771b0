/**
 * The rules of a character's way into and out of a world that no single event shows (issue #33; docs/protocol.md
 * "Entering and leaving the world", "World hopping"):
 * - a hop that cannot complete is refused before anything is left: past WORLD_ENTRIES_PER_MINUTE the hop is
 *   refused `RATE_LIMITED` and the character stays where it is (it used to be left in no world);
 * - the combat rule of hops cannot be dodged by leaving and entering: a /ws `world:leave` within 17 ticks of a hit is
 *   refused `LEAVE_IN_COMBAT`; an SDK client's consented leave in combat keeps the character in the world until the
 *   combat timer ends, and a join of the character before then is refused `LEAVE_IN_COMBAT`.
 */
import assert from 'node:assert/strict';
import { Client as SdkClient } from '@colyseus/sdk';
import { request, until } from '../economy/support.ts';
import { anonymousAccount, createCharacterRow, type TestAccount } from '../helpers/players.ts';
import { json } from '../helpers/http.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

const CHICKEN = 'npc-6';
const NEAR_CHICKEN = { x: 91, z: 60 };

describe(`world membership rules (${databaseUnderTest()}) @db`, function () {
  this.timeout(90_000);
  let server: TestServer;
  let worldA: number;
  let worldB: number;
  const sockets: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer({ WORLDS_MIN: '2', WORLD_ENTRIES_PER_MINUTE: '12', WS_MESSAGES_PER_SECOND: '1000' });
    const listed = (await json(await fetch(`${server.baseUrl}/api/v1/worlds`))).worlds as Array<{ world: number }>;
    [worldA, worldB] = listed.map((w) => w.world);
  });
  after(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  async function claims(characterId: string): Promise<number[]> {
    const rows = await server.context.db.em.fork().execute<Array<{ world: number }>>('select world from character_worlds where character_id = ?', [characterId]);
    return rows.map((row) => Number(row.world));
  }

  async function enter(account: TestAccount, characterId: string, world: number): Promise<JsonWsClient> {
    const client = await JsonWsClient.connect(server.wsUrl);
    sockets.push(client);
    client.send('authenticate', { token: account.token });
    assert.equal((await client.waitFor('authResult')).data.success, true);
    client.send('world:enter', { characterId, world });
    assert.equal((await client.waitFor('world:joined')).data.world, world);
    return client;
  }

  /** The connection is in a world that answers it: a move is acknowledged (not NOT_IN_WORLD). */
  async function answersMoves(client: JsonWsClient, x: number): Promise<void> {
    const reply = await request(client, 'player:move', { x, z: 100 }, 'player:path');
    assert.ok(reply.ok, `a move is answered, not ${reply.ok ? '' : reply.code}`);
  }

  it('a hop past the entry limit is refused RATE_LIMITED before anything is left; the character stays in its world', async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, { x: 100, z: 100 });
    const client = await enter(account, character.id, worldA);
    let here = worldA;
    const outcomes: string[] = [];
    for (let i = 0; i < 25; i++) {
      const to = here === worldA ? worldB : worldA;
      const reply = await request(client, 'world:hop', { world: to }, 'world:hopped', 10_000);
      outcomes.push(reply.ok ? 'hopped' : reply.code);
      if (reply.ok) {
        here = to;
      } else {
        assert.equal(reply.code, 'RATE_LIMITED', `hop ${i + 1}: ${reply.code}`);
        assert.ok(Number(reply.error.retryAfterMs) > 0, `the refusal says when to retry: ${JSON.stringify(reply.error)} after ${outcomes.join(', ')}`);
      }
      assert.ok(!client.events.some((e) => e.type === 'world:left'), `hop ${i + 1} left the character in no world (${outcomes.join(', ')})`);
      assert.deepEqual(await claims(character.id), [here], `after hop ${i + 1} the character is claimed by world ${here} only`);
      await answersMoves(client, 100 + (i % 2));
    }
    // One entry was the world:enter; the minute's other 11 are hops.
    assert.equal(outcomes.filter((o) => o === 'hopped').length, 11, outcomes.join(', '));
  });

  async function fightAChicken(client: JsonWsClient, characterId: string): Promise<void> {
    client.send('player:action', { action: 'attack', targetId: CHICKEN });
    await client.waitFor('combat:hit', (d) => d.attackerId === characterId || d.targetId === characterId, 15_000);
  }

  it('/ws: world:leave within 17 ticks of a hit is refused LEAVE_IN_COMBAT and changes nothing; after it the leave goes through', async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, NEAR_CHICKEN);
    const client = await enter(account, character.id, worldA);
    await fightAChicken(client, character.id);
    const refused = await request(client, 'world:leave', {}, 'world:left');
    assert.equal(refused.ok ? 'left' : refused.code, 'LEAVE_IN_COMBAT');
    if (!refused.ok) assert.ok(Number(refused.error.retryAfterSeconds) > 0 && Number(refused.error.retryAfterSeconds) <= 11);
    assert.deepEqual(await claims(character.id), [worldA], 'still in its world');
    // Walk away from the fight, then wait out the timer (17 ticks after the last hit).
    client.send('player:move', { x: 100, z: 100 });
    await until(async () => {
      const reply = await request(client, 'world:leave', {}, 'world:left');
      return reply.ok;
    }, 30_000);
    assert.deepEqual(await claims(character.id), [], 'the leave released the claim');
  });

  it('SDK: a consented leave in combat keeps the character in its world until the timer ends; a join before then is refused LEAVE_IN_COMBAT', async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, NEAR_CHICKEN);
    // A strong fighter ends the fight at its first hit, so the wait is the combat timer's 17 ticks.
    await server.context.db.em.fork().execute('update characters set attack_level = 99, strength_level = 99 where id = ?', [character.id]);
    const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${account.token}` } });
    const room = await sdk.join('world', { characterId: character.id, world: worldA });
    const hit = new Promise<void>((resolve) => room.onMessage('combat:hit', (d: { attackerId?: string; targetId?: string }) => {
      if (d.attackerId === character.id || d.targetId === character.id) resolve();
    }));
    room.send('player:action', { action: 'attack', targetId: CHICKEN });
    await hit;
    await room.leave();
    const leftAt = Date.now();
    let refusal: unknown;
    try {
      const joined = await sdk.join('world', { characterId: character.id, world: worldB });
      await joined.leave();
    } catch (error) {
      refusal = error;
    }
    assert.match(String((refusal as Error | undefined)?.message), /^LEAVE_IN_COMBAT: /, 'a join right after a leave in combat is refused');
    assert.deepEqual(await claims(character.id), [worldA], 'the character is still in the world it left in combat');
    // Once the combat timer has run out the character is saved and released, and may enter anywhere.
    await until(async () => (await claims(character.id)).length === 0, 75_000);
    console.log(`      (the character stayed ${((Date.now() - leftAt) / 1000).toFixed(1)} s after the leave, not asserted)`);
    assert.ok(Date.now() - leftAt >= 1_000, 'it stayed on after the leave');
    const next = await sdk.join('world', { characterId: character.id, world: worldB });
    await next.leave();
  });
});
