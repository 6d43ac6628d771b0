import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import { bearer, hmacToken, idpKeys, idpToken, now, unsignedToken } from './support.ts';

const SECRETS = {
  JWT_SECRET: 'jwt-secret-logscan-6a1f0c9b8d7e',
  ADMIN_CODE: 'admin-code-logscan-2b3c',
  IDP_APP_SECRET: 'idp-app-secret-logscan-4d5e',
  VOICE_API_KEY: 'voice-key-logscan-6f7a',
  VOICE_API_SECRET: 'voice-secret-logscan-8b9c',
};

describe('no secret in a log line or a response, with the most verbose logging @db', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: ServerProcess;
  const keys = idpKeys('ec');
  const seen: string[] = [];

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-auth-'));
    server = await spawnServer({
      ...SECRETS, VOICE_URL: 'wss://voice.example.test',
      PGLITE_DATA_DIR: path.join(dataDir, 'pglite'), DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'trace',
      IDP_PUBLIC_KEY: keys.publicPem, PUBLIC_IDP_APP_ID: 'app-logscan', RATE_LIMIT_AUTH_PER_MINUTE: '5',
    });
    await waitForHealth(server);
  });
  after(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function request(pathname: string, init: RequestInit = {}): Promise<number> {
    const response = await fetch(`${server.baseUrl}${pathname}`, init);
    seen.push([...response.headers.values()].join('\n'), await response.text());
    return response.status;
  }

  it('exchanges, failures, limits and errors log nothing secret', async () => {
    const good = idpToken(keys, { sub: 'did:idp:logscan', aud: 'app-logscan' });
    const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(await request('/api/auth/exchange', json({ idpToken: good })), 200);
    assert.equal(await request('/api/auth/exchange', json({ idpToken: hmacToken({ sub: 'x', aud: 'app-logscan', exp: now() + 60 }, SECRETS.IDP_APP_SECRET) })), 401);
    assert.equal(await request('/api/auth/exchange', json({ idpToken: unsignedToken({ sub: 'x' }) })), 401);
    assert.equal(await request('/api/auth/anonymous', { method: 'POST' }), 403);
    assert.equal(await request('/api/auth/exchange', json({ idpToken: good })), 200);
    assert.equal(await request('/api/auth/exchange', json({ idpToken: good })), 429);
    assert.equal(await request('/api/auth/me', { headers: bearer(hmacToken({ sub: 'a' }, SECRETS.JWT_SECRET)) }), 401);
    assert.equal(await request('/api/v1/player'), 401);
    assert.equal(await request('/env.js'), 200);
    await request('/matchmake/joinOrCreate/world', json({}));
    server.child.kill('SIGTERM');
    await server.exited;

    const output = server.output();
    assert.match(output, /"level":/, 'the server did log');
    for (const [name, value] of Object.entries(SECRETS)) {
      assert.ok(!output.includes(value), `${name} in the logs`);
      assert.ok(!seen.join('\n').includes(value), `${name} in a response`);
    }
  });
});
