import assert from 'node:assert/strict';
import { decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { worldOf } from '../../rooms/world/running-world.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { signVoiceToken, VOICE_TOKEN_TTL_SECONDS } from '../../src/http/routes/voice.ts';
import { json } from '../helpers/http.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer, type TestAccount } from '../helpers/players.ts';
import { startTestServer, testEnv, type TestServer } from '../helpers/server.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';

const VOICE = {
  VOICE_API_KEY: 'APIvoicekey7c1e',
  VOICE_API_SECRET: 'voice-secret-9d8f7e6a5b4c3d2e1f0a',
  VOICE_URL: 'wss://voice.example.test',
};
const secretKey = new TextEncoder().encode(VOICE.VOICE_API_SECRET);

function auth(account: TestAccount): Record<string, string> {
  return { Authorization: `Bearer ${account.token}` };
}

async function requestToken(server: TestServer, account: TestAccount | undefined, query = ''): Promise<Response> {
  return fetch(`${server.baseUrl}/api/voice/token${query}`, { method: 'POST', headers: account ? auth(account) : {} });
}

async function expectProblem(response: Response, status: number, code: string): Promise<string> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(JSON.parse(text).code, code);
  return text;
}

describe('voice configuration', () => {
  it('accepts all three voice variables or none', () => {
    assert.equal(loadConfig(testEnv()).config.voiceUrl, undefined);
    assert.equal(loadConfig(testEnv(VOICE)).config.voiceUrl, VOICE.VOICE_URL);
  });

  it('refuses a partial voice configuration, naming what is missing', () => {
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ VOICE_API_KEY: 'k' }, ['VOICE_API_SECRET', 'VOICE_URL']],
      [{ VOICE_API_KEY: 'k', VOICE_API_SECRET: 's' }, ['VOICE_URL']],
      [{ VOICE_URL: VOICE.VOICE_URL }, ['VOICE_API_KEY', 'VOICE_API_SECRET']],
    ];
    for (const [env, missing] of cases) {
      assert.throws(() => loadConfig(testEnv(env)), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        const problem = error.problems.find((p) => p.startsWith('voice chat'));
        assert.ok(problem, error.message);
        assert.ok(problem.endsWith(`missing: ${missing.join(', ')}`), problem);
        return true;
      });
    }
  });
});

describe('POST /api/voice/token @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  let account: TestAccount;
  let characterId: string;
  let characterName: string;
  let player: JsonWsClient;
  /** Every response body and header the tests saw, to prove the secret never leaves the server. */
  const seen: string[] = [];
  const record = async (response: Response): Promise<string> => {
    const text = await response.clone().text();
    seen.push([...response.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n'), text);
    return text;
  };

  before(async () => {
    server = await startTestServer(VOICE);
    account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, { x: 130, z: 120 });
    characterId = character.id;
    characterName = character.name;
    player = await jsonPlayer(server, account, characterId);
  });

  after(async () => {
    player?.close();
    await server?.close();
  });

  it('needs a token (401)', async () => {
    const response = await requestToken(server, undefined);
    await record(response);
    await expectProblem(response, 401, 'AUTH_REQUIRED');
  });

  it('issues an HS256 LiveKit-style token for the character and its world room', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await requestToken(server, account);
    await record(response);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = await json(response);
    const roomId = worldOf(server.context)!.roomId;
    assert.equal(body.url, VOICE.VOICE_URL);
    assert.equal(body.room, roomId);
    assert.equal(body.identity, characterId);
    assert.equal(body.name, characterName);

    const { payload, protectedHeader } = await jwtVerify(body.token, secretKey, { algorithms: ['HS256'], issuer: VOICE.VOICE_API_KEY });
    assert.equal(protectedHeader.alg, 'HS256');
    assert.equal(payload.sub, characterId);
    assert.equal(payload.name, characterName);
    assert.deepEqual(payload.video, { room: roomId, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: false });
    assert.ok(payload.nbf! >= before - 1 && payload.nbf! <= Math.ceil(Date.now() / 1000), 'nbf is now');
    assert.equal(payload.exp! - payload.nbf!, VOICE_TOKEN_TTL_SECONDS);
    assert.equal(new Date(body.expiresAt).getTime(), payload.exp! * 1000);
  });

  it('issues a token that is refused once expired and under another secret', async () => {
    const body = await json(await requestToken(server, account));
    const { exp } = decodeJwt(body.token);
    await assert.rejects(
      jwtVerify(body.token, secretKey, { algorithms: ['HS256'], currentDate: new Date((exp! + 1) * 1000) }),
      joseErrors.JWTExpired,
    );
    await assert.rejects(jwtVerify(body.token, new TextEncoder().encode('another-secret-of-some-length'), { algorithms: ['HS256'] }));
    // A token signed eleven minutes ago has expired by now.
    const settings = { apiKey: VOICE.VOICE_API_KEY, apiSecret: VOICE.VOICE_API_SECRET, url: VOICE.VOICE_URL };
    const old = await signVoiceToken(settings, { identity: characterId, name: characterName, room: 'r' }, Date.now() - 660_000);
    await assert.rejects(jwtVerify(old.token, secretKey, { algorithms: ['HS256'] }), joseErrors.JWTExpired);
  });

  it('answers 409 NOT_IN_WORLD when the character is not in the world', async () => {
    const other = await anonymousAccount(server);
    const offline = await createCharacterRow(server, other.accountId);
    const response = await requestToken(server, other);
    await record(response);
    await expectProblem(response, 409, 'NOT_IN_WORLD');
    await expectProblem(await requestToken(server, other, `?characterId=${offline.id}`), 409, 'NOT_IN_WORLD');
  });

  it('refuses another account\'s character and an agent token', async () => {
    const other = await anonymousAccount(server);
    await expectProblem(await requestToken(server, other, `?characterId=${characterId}`), 403, 'CHARACTER_NOT_OWNED');
    const registered = await fetch(`${server.baseUrl}/api/agent`, {
      method: 'POST', headers: { ...auth(account), 'Content-Type': 'application/json' }, body: JSON.stringify({ characterId }),
    });
    assert.equal(registered.status, 201);
    const agentToken = (await json(registered)).token;
    const response = await fetch(`${server.baseUrl}/api/voice/token`, { method: 'POST', headers: { Authorization: `Bearer ${agentToken}` } });
    await expectProblem(response, 403, 'INSUFFICIENT_SCOPE');
  });

  it('validates the query (400)', async () => {
    await expectProblem(await requestToken(server, account, '?room=elsewhere'), 400, 'VALIDATION_FAILED');
  });

  it('exposes VOICE_URL in /env.js, and never the key or the secret', async () => {
    const response = await fetch(`${server.baseUrl}/env.js`);
    const script = await record(response);
    assert.ok(script.includes(VOICE.VOICE_URL));
    assert.ok(!script.includes(VOICE.VOICE_API_KEY), 'no key in /env.js');
    assert.ok(!script.includes(VOICE.VOICE_API_SECRET), 'no secret in /env.js');
  });

  it('never sent the secret, and never the key in clear text (it is only the token\'s iss claim)', () => {
    assert.ok(seen.length > 0);
    for (const text of seen) {
      assert.ok(!text.includes(VOICE.VOICE_API_SECRET), 'secret in a response');
      assert.ok(!text.includes(VOICE.VOICE_API_KEY), 'key in a response');
      for (const token of text.match(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g) ?? []) {
        assert.ok(!JSON.stringify(decodeJwt(token)).includes(VOICE.VOICE_API_SECRET), 'secret inside a token');
      }
    }
  });
});

describe('POST /api/voice/token without voice configuration @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('answers 404 VOICE_NOT_CONFIGURED, and /env.js has no VOICE_URL', async () => {
    const account = await anonymousAccount(server);
    await expectProblem(await requestToken(server, account), 404, 'VOICE_NOT_CONFIGURED');
    await expectProblem(await requestToken(server, undefined), 401, 'AUTH_REQUIRED');
    assert.match(await (await fetch(`${server.baseUrl}/env.js`)).text(), /"VOICE_URL":null/);
  });
});
