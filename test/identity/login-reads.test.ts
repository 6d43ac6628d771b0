/**
 * Logins' accounts are read in batches (src/auth/login-reads.ts; docs/worlds.md "When the server is full"): the
 * logins of one turn share a query, each gets its own account (or none), and nothing is cached between batches.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { LoginReads, type AccountRights } from '../../src/auth/login-reads.ts';
import { anonymousAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

function rights(id: string): AccountRights {
  return { id, roles: ['player'], isTemporary: false, expiresAt: null };
}

describe('login account reads', () => {
  it('reads the accounts of the logins of one turn with one query, at most 128 per query', async () => {
    const queries: string[][] = [];
    const reads = new LoginReads(async (ids) => {
      queries.push(ids);
      await sleep(5);
      return ids.filter((id) => !id.startsWith('gone')).map(rights);
    }, 2);
    const ids = Array.from({ length: 300 }, (_, i) => (i % 50 === 7 ? `gone-${i}` : `account-${i}`));
    const answers = await Promise.all(ids.map((id) => reads.account(id)));
    assert.deepEqual(answers.map((answer, i) => answer?.id ?? `missing ${ids[i]}`), ids.map((id) => (id.startsWith('gone') ? `missing ${id}` : id)));
    assert.deepEqual(queries.map((query) => query.length), [128, 128, 44]);
  });

  it('reads again for a later login: nothing is cached', async () => {
    let stored: AccountRights | undefined = rights('a');
    let count = 0;
    const reads = new LoginReads(async () => {
      count++;
      return stored ? [stored] : [];
    }, 1);
    assert.equal((await reads.account('a'))?.id, 'a');
    stored = undefined;
    assert.equal(await reads.account('a'), null);
    assert.equal(count, 2);
  });

  it('a query that fails refuses the logins of its batch only', async () => {
    let fail = true;
    const reads = new LoginReads(async (ids) => {
      if (fail) throw new Error('database unreachable');
      return ids.map(rights);
    }, 1);
    const first = await Promise.allSettled([reads.account('a'), reads.account('b')]);
    assert.deepEqual(first.map((result) => result.status), ['rejected', 'rejected']);
    fail = false;
    assert.equal((await reads.account('c'))?.id, 'c');
  });
});

describe('logins checked together on a real database @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('each login gets its own account: the live ones pass, a deleted one is refused ACCOUNT_NOT_FOUND', async () => {
    const accounts = await Promise.all(Array.from({ length: 40 }, () => anonymousAccount(server)));
    const deleted = accounts[13];
    await server.context.db.em.getConnection().execute('delete from users where id = ?', [deleted.accountId]);
    const results = await Promise.allSettled(accounts.map((account) => server.context.auth.verifyLogin(account.token)));
    results.forEach((result, i) => {
      if (i === 13) {
        assert.equal(result.status, 'rejected');
        assert.equal((result as PromiseRejectedResult).reason.code, 'ACCOUNT_NOT_FOUND');
      } else {
        assert.equal(result.status, 'fulfilled', `login ${i}: ${JSON.stringify((result as PromiseRejectedResult).reason?.message)}`);
        assert.equal((result as PromiseFulfilledResult<{ accountId: string }>).value.accountId, accounts[i].accountId);
      }
    });
  });
});
