/**
 * The per-account character limit holds under parallel creation (issue #17 item 5): the count and the insert are
 * one step, so a burst of POST /api/character cannot make more than 10 characters (each with a starter kit).
 */
import assert from 'node:assert/strict';
import { MAX_CHARACTERS_PER_ACCOUNT } from '../../src/db/character-creation.ts';
import { uniqueName } from '../helpers/database.ts';
import { anonymousAccount } from '../helpers/players.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { call } from './support.ts';

describe(`character limit under parallel creation on ${databaseUnderTest()} @db`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ RATE_LIMIT_REST_PER_MINUTE: '100000' });
  });
  after(async () => {
    await server?.close();
  });

  it('40 parallel creations with a starter kit make exactly 10 characters and 10 kits; the rest are CHARACTER_LIMIT', async () => {
    const { token, accountId } = await anonymousAccount(server);
    const attempts = 40;
    const results = await Promise.all(Array.from({ length: attempts }, () =>
      call(server, 'POST', '/api/character', token, { name: uniqueName('p').slice(0, 12), templateId: 'wanderer' })));

    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, MAX_CHARACTERS_PER_ACCOUNT, JSON.stringify(statuses));
    for (const refused of results.filter((r) => r.status !== 201)) {
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, 'CHARACTER_LIMIT');
    }
    const connection = server.context.db.em.getConnection();
    const [row] = await connection.execute('select count(*)::int as n from characters where account_id = ?', [accountId]);
    assert.equal(row.n, MAX_CHARACTERS_PER_ACCOUNT);
    const [coins] = await connection.execute(
      `select coalesce(sum(i.quantity), 0)::int as n from inventory i join characters c on c.id = i.character_id
        where c.account_id = ? and i.item_id = 'coins'`, [accountId]);
    assert.equal(coins.n, MAX_CHARACTERS_PER_ACCOUNT * 25, 'one 25-coin starter kit per character that exists, no more');
  });
});
