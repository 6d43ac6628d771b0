/**
 * What counts as an authentication attempt (docs/auth.md "Limits"): logins, token exchanges and failed
 * verifications — not a valid server token presented to join a room (Colyseus matchmaking, /ws `authenticate`).
 * Load-test bots with minted tokens (`npm run mint-tokens`) therefore join a production-like server with the real
 * limit on, however many there are.
 */
import assert from 'node:assert/strict';
import { Client as SdkClient, type Room as SdkRoom } from '@colyseus/sdk';
import { mintLoadTestTokens, type MintedToken } from '../../src/tools/mint-tokens.ts';
import { uniqueName } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

const LIMIT = 3;

async function matchmake(server: TestServer, token: string): Promise<{ status: number; error: string }> {
  const response = await fetch(`${server.baseUrl}/matchmake/join/world`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ createCharacter: { name: uniqueName('j') } }),
  });
  const body = await response.json() as { error?: string };
  return { status: response.status, error: body.error ?? '' };
}

describe(`joining with a valid token is not an authentication attempt (limit ${LIMIT} per minute) @db`, function () {
  this.timeout(120_000);
  let server: TestServer;
  let minted: MintedToken[];
  const rooms: SdkRoom[] = [];
  const sockets: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer({ RATE_LIMIT_AUTH_PER_MINUTE: String(LIMIT) });
    minted = await mintLoadTestTokens({ em: server.context.db.em.fork(), tokens: server.context.auth.tokens, count: 2 * LIMIT + 3, ttlSeconds: 600 });
  });
  after(async () => {
    for (const socket of sockets) socket.close();
    await Promise.allSettled(rooms.map((room) => room.leave()));
    await server?.close();
  });

  it(`${LIMIT + 2} SDK bots with minted tokens all join the world with a new character`, async () => {
    for (const { token, accountId } of minted.slice(0, LIMIT + 2)) {
      const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${token}` } });
      const room = await sdk.join('world', { createCharacter: { name: uniqueName('b') } });
      rooms.push(room);
      const sync = await new Promise<{ accountId?: string }>((resolve) => room.onMessage('player:sync', resolve));
      assert.ok(sync, `bot of ${accountId} is in the world`);
    }
  });

  it(`${LIMIT + 1} /ws clients with minted tokens all authenticate`, async () => {
    for (const { token, accountId } of minted.slice(LIMIT + 2, 2 * LIMIT + 3)) {
      const socket = await JsonWsClient.connect(server.wsUrl);
      sockets.push(socket);
      socket.send('authenticate', { token });
      const result = await socket.waitFor('authResult');
      assert.deepEqual([result.data.success, result.data.accountId], [true, accountId], JSON.stringify(result.data));
    }
  });

  it('failed verifications still count, and a blocked address is refused even with a valid token', async () => {
    const forged = `${minted[0].token.slice(0, -4)}AAAA`;
    for (let attempt = 1; attempt <= LIMIT; attempt++) {
      const refused = await matchmake(server, forged);
      assert.equal(refused.status, 401, `attempt ${attempt}`);
      assert.match(refused.error, /^TOKEN_INVALID/);
    }
    const over = await matchmake(server, forged);
    assert.equal(over.status, 429);
    assert.match(over.error, /^AUTH_RATE_LIMITED/);
    const blocked = await matchmake(server, minted[1].token);
    assert.equal(blocked.status, 429, 'blocked for every token while the block lasts');
    const ws = await server.context.auth.authenticateSocket({ token: minted[2].token, address: '127.0.0.1' }).then(() => 'ok', (e) => e.code);
    assert.equal(ws, 'AUTH_RATE_LIMITED', 'the /ws path shares the block');
  });
});
