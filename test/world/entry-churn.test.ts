/**
 * World entry churn (issue #17 item 12): `world:enter`/`world:leave` in a loop wrote one player_sessions row per
 * entry. Entries are limited per account (WORLD_ENTRIES_PER_MINUTE) and a quick re-entry continues the last row.
 */
import assert from 'node:assert/strict';
import { anonymousAccount, createCharacterRow, jsonPlayer, sdkPlayer } from '../helpers/players.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

const ENTRIES = 5;

describe(`world entry churn on ${databaseUnderTest()} @db`, function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ WORLD_ENTRIES_PER_MINUTE: String(ENTRIES) });
  });
  after(() => server?.close());

  it(`enter/leave in a loop keeps one session row; entry ${ENTRIES + 1} within the minute is RATE_LIMITED and changes nothing`, async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId);
    const client = await JsonWsClient.connect(server.wsUrl);
    client.send('authenticate', { token: account.token });
    assert.equal((await client.waitFor('authResult')).data.success, true);

    for (let i = 0; i < ENTRIES; i++) {
      client.send('world:enter', { characterId: character.id });
      await client.next('world:joined');
      client.send('world:leave', {});
      await client.next('world:left');
    }
    const rowsOf = () => server.context.db.em.fork().execute<Array<{ id: string; ended_at: Date | null; reason: string | null }>>(
      'select id, ended_at, reason from player_sessions where character_id = ?', [character.id]);
    const rows = await rowsOf();
    assert.equal(rows.length, 1, `one row for ${ENTRIES} quick entries, not one each`);
    assert.equal(rows[0].reason, 'logout');
    assert.notEqual(rows[0].ended_at, null);

    client.send('world:enter', { characterId: character.id });
    const refused = await client.next('error');
    assert.equal(refused.data.code, 'RATE_LIMITED');
    assert.deepEqual(await rowsOf(), rows, 'the refused entry wrote nothing');
    assert.equal(server.context.online.has(character.id), false);
    // The SDK's join counts against the same limit: a 429 whose message starts with the code.
    await assert.rejects(sdkPlayer(server, account, character.id), (error: Error & { code?: number }) =>
      /^RATE_LIMITED/.test(error.message) && error.code === 429);

    // The limit is the account's: another account enters as usual.
    const other = await anonymousAccount(server);
    const otherClient = await jsonPlayer(server, other, (await createCharacterRow(server, other.accountId)).id);
    otherClient.close();
    client.close();
  });

  it('a kicked or shut-down session is never continued: the next entry opens a new row', async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId);
    const first = await jsonPlayer(server, account, character.id);
    first.send('world:leave', {});
    await first.next('world:left');
    await server.context.db.em.fork().execute(`update player_sessions set reason = 'kicked' where character_id = ?`, [character.id]);
    first.send('world:enter', { characterId: character.id });
    await first.next('world:joined');
    const rows = await server.context.db.em.fork().execute<Array<{ reason: string | null }>>(
      'select reason from player_sessions where character_id = ? order by started_at', [character.id]);
    assert.deepEqual(rows.map((r) => r.reason), ['kicked', null]);
    first.close();
  });
});
