/**
 * Issue #35 item 6: a failed token on the operator pages (the world map's data, the Colyseus monitor) is an
 * authentication attempt of the client address, as it is on /metrics — one limit for all three (docs/auth.md).
 */
import assert from 'node:assert/strict';
import { json } from '../helpers/http.ts';
import { accountWithRoles } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const AUTH_LIMIT = 3;
const PATHS = ['/operator/world-map/api/worlds', '/operator/world-map', '/colyseus/api', '/metrics'];

describe('operator pages count failed tokens against the authentication limit @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer({ TRUST_PROXY: '1', RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_LIMIT) });
    admin = (await accountWithRoles(server, ['player', 'admin'])).token;
  });
  after(() => server?.close());

  const from = (address: string, authorization: string) => ({ headers: { Authorization: authorization, 'X-Forwarded-For': address } });

  for (const [i, path] of PATHS.entries()) {
    it(`${path}: a wrong token counts; past the limit the address is refused, even with an admin token`, async () => {
      const address = `203.0.113.${10 + i}`;
      const statuses: number[] = [];
      for (let attempt = 0; attempt < AUTH_LIMIT + 1; attempt++) {
        statuses.push((await fetch(`${server.baseUrl}${path}`, from(address, 'Bearer not-a-token'))).status);
      }
      assert.deepEqual(statuses, [...Array(AUTH_LIMIT).fill(401), 429]);
      const blocked = await fetch(`${server.baseUrl}${path}`, from(address, `Bearer ${admin}`));
      assert.equal(blocked.status, 429);
      assert.equal((await json(blocked)).code, 'AUTH_RATE_LIMITED');
      const elsewhere = await fetch(`${server.baseUrl}${path}`, from('203.0.113.99', `Bearer ${admin}`));
      assert.equal(elsewhere.status, 200, 'another address is not held back');
    });
  }

  it('one limit: failures on the world map, the monitor and /metrics add up for an address', async () => {
    const address = '203.0.113.50';
    const statuses: number[] = [];
    for (const path of ['/operator/world-map/api/worlds', '/colyseus/api', '/metrics', '/operator/world-map/api/worlds']) {
      statuses.push((await fetch(`${server.baseUrl}${path}`, from(address, 'Basic b3BlcmF0b3I6bm9wZQ=='))).status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 429]);
  });

  it('a valid token without the admin role counts too, as on /metrics (403, then 429)', async () => {
    const player = (await accountWithRoles(server, ['player'])).token;
    const address = '203.0.113.60';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < AUTH_LIMIT + 1; attempt++) {
      statuses.push((await fetch(`${server.baseUrl}/operator/world-map/api/worlds`, from(address, `Bearer ${player}`))).status);
    }
    assert.deepEqual(statuses, [...Array(AUTH_LIMIT).fill(403), 429]);
  });
});
