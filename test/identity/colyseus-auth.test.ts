import assert from 'node:assert/strict';
import { matchMaker, Room, type AuthContext, type Client } from '@colyseus/core';
import { Client as SdkClient } from '@colyseus/sdk';
import { authenticateColyseusClient } from '../../src/auth/colyseus.ts';
import type { Identity } from '../../src/auth/tokens.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** A room that authenticates exactly as the game rooms are meant to: static onAuth → authenticateColyseusClient. */
class ProbeRoom extends Room {
  static override async onAuth(_token: string, _options: unknown, context: AuthContext): Promise<Identity> {
    return authenticateColyseusClient(context);
  }

  override onJoin(client: Client): void {
    client.send('whoami', (client.auth as Identity).accountId);
  }
}

async function matchmake(server: TestServer, headers: Record<string, string>) {
  const response = await fetch(`${server.baseUrl}/matchmake/joinOrCreate/auth-probe`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}',
  });
  return { status: response.status, body: await response.json() as any };
}

describe('Colyseus SDK clients authenticate on the matchmaking request @db', () => {
  let server: TestServer;
  let token: string;
  let accountId: string;

  before(async () => {
    server = await startTestServer({ RATE_LIMIT_AUTH_PER_MINUTE: '6' });
    matchMaker.defineRoomType('auth-probe', ProbeRoom);
    const session = await (await fetch(`${server.baseUrl}/api/auth/anonymous`, { method: 'POST' })).json() as any; // attempt 1
    token = session.token;
    accountId = session.accountId;
  });
  after(async () => {
    await server?.close();
    matchMaker.removeRoomType('auth-probe');
  });

  it('an SDK client sending the token as a header joins as its account (the token stays out of the socket URL)', async () => {
    let socketUrl = '';
    const sdk = new SdkClient(server.baseUrl, {
      headers: { Authorization: `Bearer ${token}` },
      urlBuilder: (url) => (socketUrl = url.toString()),
    });
    const room = await sdk.joinOrCreate('auth-probe'); // a valid token at join is not an attempt
    const whoami = await new Promise((resolve) => room.onMessage('whoami', resolve));
    assert.equal(whoami, accountId);
    assert.ok(socketUrl.length > 0 && !socketUrl.includes(token), 'no token in the WebSocket URL');
    await room.leave();
  });

  it('without a token, or with a bad one, matchmaking is refused with 401 and the code in the message', async () => {
    const missing = await matchmake(server, {}); // attempt 2
    assert.equal(missing.status, 401);
    assert.match(missing.body.error, /^AUTH_REQUIRED/);
    const bad = await matchmake(server, { Authorization: `Bearer ${token.slice(0, -4)}AAAA` }); // attempt 3
    assert.equal(bad.status, 401);
    assert.match(bad.body.error, /^TOKEN_INVALID/);
  });

  it('counts against the authentication limit per address; spoofed address headers do not help', async () => {
    for (const spoof of ['198.51.100.1', '198.51.100.2', '198.51.100.4']) { // attempts 4 to 6
      assert.notEqual((await matchmake(server, { 'X-Real-IP': spoof, 'X-Forwarded-For': spoof, 'X-Client-IP': spoof })).status, 429);
    }
    const limited = await matchmake(server, { 'X-Real-IP': '198.51.100.3' }); // attempt 7: over the limit
    assert.equal(limited.status, 429);
    assert.match(limited.body.error, /^AUTH_RATE_LIMITED/);
    // The address is now blocked: even a valid token is refused until the block ends.
    const blocked = await matchmake(server, { Authorization: `Bearer ${token}` });
    assert.equal(blocked.status, 429);
  });
});
