/**
 * /ws authentication as docs/protocol.md states it, and the order of one client's events (issue #16 items 5, 6):
 * - `authenticate` must be the first message; anything else first closes the socket with 4001;
 * - frames sent without waiting (authenticate, world:enter, player:chat) are handled in order;
 * - a second `authenticate` sent right behind the first cannot switch the socket to another account;
 * - a `token` that is present but not a string is TOKEN_INVALID + 4001, never a new anonymous identity;
 * - one client's events take effect in the order sent (`/admin` then `/give` at once), on /ws and the SDK.
 */
import assert from 'node:assert/strict';
import { Client as SdkClient } from '@colyseus/sdk';
import { rowsOf } from '../economy/support.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer, type TestAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

const ADMIN_CODE = 'order matters';

describe('/ws authentication and per-client event order @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ADMIN_CODE, RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  });
  after(() => server?.close());

  async function accountCount(): Promise<number> {
    const [row] = await server.context.db.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from users');
    return Number(row.n);
  }

  describe('authentication', () => {
    it('closes with 4001 when the first message is not authenticate, and a later authenticate is never read', async () => {
      const account = await anonymousAccount(server);
      const client = await JsonWsClient.connect(server.wsUrl);
      client.send('player:chat', { message: 'hello' });
      client.send('authenticate', { token: account.token });
      const closed = await client.closed;
      assert.equal(closed.code, 4001);
      assert.equal(client.events.find((e) => e.type === 'error')?.data.code, 'AUTH_REQUIRED');
      assert.ok(!client.events.some((e) => e.type === 'authResult'), 'the authenticate after it was not handled');
    });

    it('handles authenticate, world:enter and player:chat sent without waiting, in order', async () => {
      const account = await anonymousAccount(server);
      const character = await createCharacterRow(server, account.accountId);
      const client = await JsonWsClient.connect(server.wsUrl);
      client.send('authenticate', { token: account.token });
      client.send('world:enter', { characterId: character.id });
      client.send('player:chat', { message: 'pipelined' });
      await client.waitFor('chat:message', (d) => d.message === 'pipelined');
      const order = client.events.map((e) => e.type).filter((t) => ['authResult', 'world:joined', 'chat:message', 'error'].includes(t));
      assert.deepEqual(order, ['authResult', 'world:joined', 'chat:message']);
      client.close();
    });

    it('answers ALREADY_AUTHENTICATED to a second authenticate sent right behind the first; the socket keeps the first account', async () => {
      const first = await anonymousAccount(server);
      const second = await anonymousAccount(server);
      const client = await JsonWsClient.connect(server.wsUrl);
      client.send('authenticate', { token: first.token });
      client.send('authenticate', { token: second.token });
      const error = await client.waitFor('error', (d) => d.event === 'authenticate');
      assert.equal(error.data.code, 'ALREADY_AUTHENTICATED');
      const results = client.events.filter((e) => e.type === 'authResult');
      assert.deepEqual(results.map((e) => e.data.accountId), [first.accountId]);
      // The socket acts as the first account: the second account's character is not its own.
      const theirs = await createCharacterRow(server, second.accountId);
      client.send('world:enter', { characterId: theirs.id });
      assert.equal((await client.waitFor('error', (d) => d.event === 'world:enter')).data.code, 'CHARACTER_NOT_OWNED');
      client.close();
    });

    for (const token of [true, 1, [], {}, null, '']) {
      it(`refuses a token of ${JSON.stringify(token)} with TOKEN_INVALID and 4001, creating no account`, async () => {
        const before = await accountCount();
        const client = await JsonWsClient.connect(server.wsUrl);
        client.send('authenticate', { token });
        const closed = await client.closed;
        assert.equal(closed.code, 4001);
        const result = client.events.find((e) => e.type === 'authResult');
        assert.deepEqual({ success: result?.data.success, code: result?.data.error?.code }, { success: false, code: 'TOKEN_INVALID' });
        assert.equal(await accountCount(), before, 'no temporary identity was created');
      });
    }
  });

  describe('the order of one client\'s events', () => {
    async function fresh(): Promise<{ account: TestAccount; characterId: string }> {
      const account = await anonymousAccount(server);
      return { account, characterId: (await createCharacterRow(server, account.accountId)).id };
    }

    it('/ws: /admin then /give sent at once: the give runs as admin', async () => {
      const { account, characterId } = await fresh();
      const client = await jsonPlayer(server, account, characterId);
      client.send('player:chat', { message: `/admin ${ADMIN_CODE}` });
      client.send('player:chat', { message: '/give coins 7' });
      const done = await client.waitFor('admin:done', () => true, 10_000).catch(() => undefined);
      const refused = client.events.find((e) => e.type === 'error');
      assert.equal(refused?.data.code, undefined, 'the give was not refused');
      assert.ok(client.events.some((e) => e.type === 'admin:granted'));
      assert.deepEqual(done?.data, { command: 'give', itemId: 'coins', quantity: 7, source: 'admin_give' });
      assert.deepEqual((await rowsOf(server.context.db, characterId)).inventory.map((r) => [r.item_id, r.quantity]), [['coins', 7]]);
      client.close();
    });

    it('SDK: /admin then /give sent at once: the give runs as admin', async () => {
      const { account, characterId } = await fresh();
      const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${account.token}` } });
      const room = await sdk.join('world', { characterId });
      const seen: Array<{ type: string; data: { code?: string } }> = [];
      room.onMessage('*', (type, data) => seen.push({ type: String(type), data }));
      room.send('player:chat', { message: `/admin ${ADMIN_CODE}` });
      room.send('player:chat', { message: '/give coins 9' });
      const started = Date.now();
      while (!seen.some((e) => e.type === 'admin:done' || e.type === 'error') && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.deepEqual(seen.filter((e) => ['admin:granted', 'admin:done', 'error'].includes(e.type)).map((e) => e.data.code ?? e.type),
        ['admin:granted', 'admin:done']);
      await room.leave();
    });
  });
});
