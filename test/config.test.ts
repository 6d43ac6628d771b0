import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { ConfigError, loadConfig, PUBLIC_ADDRESS_VARIABLES, REQUIRED_IN_PRODUCTION, secretValues, TEST_RATE_LIMIT } from '../src/config.ts';
import { CONFIG_GROUPS, DEVELOPMENT_RATE_LIMIT, VARIABLES } from '../src/config/variables.ts';

const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://game@db/game',
  JWT_SECRET: 'a-production-signing-secret-of-32-bytes-or-more',
  ADMIN_CODE: 'admin-code',
  PUBLIC_IDP_APP_ID: 'app-id',
  IDP_APP_SECRET: 'idp-secret',
  PUBLIC_API_URL: 'https://api.game.example',
  PUBLIC_WS_URL: 'wss://api.game.example/ws',
  PUBLIC_CDN_URL: 'https://cdn.game.example',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/project');
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail('expected a ConfigError');
}

describe('configuration', () => {
  it('works with no configuration at all, with the spec defaults', () => {
    const { config, warnings } = loadConfig({}, '/project');
    assert.deepEqual(warnings, []);
    assert.equal(config.port, 5555);
    assert.equal(config.nodeEnv, 'development');
    assert.equal(config.isProduction, false);
    assert.equal(config.worldDir, path.resolve('/project', 'world'));
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.pgliteDataDir, path.resolve('/project', 'data/pglite'));
    assert.equal(config.useLocalPostgres, false);
    assert.equal(config.publicCdnUrl, 'http://localhost:8080');
    assert.equal(config.publicApiUrl, 'http://localhost:5555');
    assert.equal(config.publicWsUrl, 'ws://localhost:5555/ws');
    assert.equal(config.publicAppUrl, undefined);
    assert.equal(config.clientUrl, undefined);
    assert.equal(config.agentUrl, undefined);
    assert.equal(config.agentApiUrl, undefined);
    assert.equal(config.skipManifests, false);
    assert.equal(config.skipAssets, false);
    assert.equal(config.ci, false);
    assert.equal(config.saveIntervalSeconds, 60);
    assert.equal(config.disableRateLimit, false);
    assert.equal(config.jwtSecret, undefined);
    assert.equal(config.adminCode, undefined);
    assert.equal(config.commitHash, 'unknown');
    assert.ok(Object.isFrozen(config));
  });

  it('reads every variable of the spec table', () => {
    const { config } = loadConfig({
      PORT: '7000', NODE_ENV: 'test', WORLD: 'worlds/alt', DATABASE_URL: 'postgresql://u@h:5432/d',
      USE_LOCAL_POSTGRES: 'true', JWT_SECRET: 's', ADMIN_CODE: 'a', PUBLIC_IDP_APP_ID: 'i', IDP_APP_SECRET: 'x',
      PUBLIC_CDN_URL: 'https://cdn.example.com/', PUBLIC_API_URL: 'https://api.example.com',
      PUBLIC_WS_URL: 'wss://api.example.com/ws', PUBLIC_APP_URL: 'https://play.example.com',
      CLIENT_URL: 'https://client.example.com', AGENT_URL: 'http://localhost:4001', AGENT_API_URL: 'http://127.0.0.1:4001',
      SKIP_MANIFESTS: 'true', SKIP_ASSETS: '1', CI: 'true', VOICE_API_KEY: 'k', VOICE_API_SECRET: 'vs',
      VOICE_URL: 'wss://voice.example.com', SAVE_INTERVAL: '15', DISABLE_RATE_LIMIT: 'true', COMMIT_HASH: 'abc123',
    }, '/project');
    assert.equal(config.port, 7000);
    assert.equal(config.nodeEnv, 'test');
    assert.equal(config.worldDir, path.resolve('/project', 'worlds/alt'));
    assert.equal(config.databaseUrl, 'postgresql://u@h:5432/d');
    assert.equal(config.useLocalPostgres, true);
    assert.equal(config.publicCdnUrl, 'https://cdn.example.com');
    assert.equal(config.publicWsUrl, 'wss://api.example.com/ws');
    assert.equal(config.agentUrl, 'http://localhost:4001');
    assert.equal(config.skipManifests, true);
    assert.equal(config.skipAssets, true);
    assert.equal(config.ci, true);
    assert.equal(config.voiceUrl, 'wss://voice.example.com');
    assert.equal(config.saveIntervalSeconds, 15);
    assert.equal(config.disableRateLimit, true);
    assert.equal(config.commitHash, 'abc123');
  });

  const badValues: Array<[string, string]> = [
    ['PORT', 'abc'], ['PORT', '70000'], ['PORT', '-1'], ['PORT', '55.5'],
    ['SAVE_INTERVAL', '-5'], ['SAVE_INTERVAL', '0'], ['SAVE_INTERVAL', 'often'],
    ['NODE_ENV', 'staging'],
    ['DATABASE_URL', 'mysql://db/game'], ['DATABASE_URL', 'not a url'],
    ['PUBLIC_CDN_URL', 'ftp://cdn'], ['PUBLIC_API_URL', 'nope'], ['PUBLIC_WS_URL', 'http://localhost:5555/ws'],
    ['PUBLIC_APP_URL', '//app'], ['CLIENT_URL', 'client'], ['AGENT_URL', 'x'], ['AGENT_API_URL', 'y'],
    ['VOICE_URL', 'voice'],
    ['SKIP_MANIFESTS', 'maybe'], ['SKIP_ASSETS', 'sometimes'], ['CI', 'yes please'],
    ['USE_LOCAL_POSTGRES', 'perhaps'], ['DISABLE_RATE_LIMIT', '2'],
  ];
  /** Variables only valid together with others (voice: all three or none), so that the bad value is the one problem. */
  const companions: Record<string, Record<string, string>> = { VOICE_URL: { VOICE_API_KEY: 'k', VOICE_API_SECRET: 's' } };
  for (const [name, value] of badValues) {
    it(`refuses ${name}=${value} with a message naming the variable`, () => {
      const problems = problemsOf({ ...companions[name], [name]: value });
      assert.equal(problems.length, 1);
      assert.match(problems[0], new RegExp(`^${name} `));
      assert.ok(problems[0].includes(value));
    });
  }

  it('reports several bad values together', () => {
    const problems = problemsOf({ PORT: 'abc', SAVE_INTERVAL: '-5', NODE_ENV: 'staging' });
    assert.equal(problems.length, 3);
  });

  it('refuses production without the required variables, listing every missing one', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    assert.equal(problems.length, 2);
    for (const name of REQUIRED_IN_PRODUCTION) assert.ok(problems[0].includes(name), `${name} listed`);
    for (const name of PUBLIC_ADDRESS_VARIABLES) assert.ok(problems[1].includes(name), `${name} listed`);
  });

  it('refuses production when a public address given to clients is unset, naming the loopback default it would hand out', () => {
    const { PUBLIC_WS_URL: _omit, ...partial } = PRODUCTION_ENV;
    assert.deepEqual(problemsOf(partial), [
      'NODE_ENV=production needs the public addresses /env.js gives clients, reachable from their machines; '
        + 'unset or loopback: PUBLIC_WS_URL (unset, so ws://localhost:5555/ws)',
    ]);
  });

  it('refuses loopback public addresses in production, listing each one', () => {
    const [problem, ...rest] = problemsOf({
      ...PRODUCTION_ENV, PUBLIC_API_URL: 'http://127.0.0.1:5555', PUBLIC_WS_URL: 'ws://[::1]:5555/ws',
      PUBLIC_CDN_URL: 'http://LOCALHOST.:8080', PUBLIC_APP_URL: 'http://0.0.0.0:3000',
    });
    assert.deepEqual(rest, []);
    assert.match(problem, /unset or loopback: PUBLIC_API_URL \(http:\/\/127\.0\.0\.1:5555\), PUBLIC_WS_URL \(ws:\/\/\[::1\]:5555\/ws\), PUBLIC_CDN_URL \(http:\/\/LOCALHOST\.:8080\), PUBLIC_APP_URL \(http:\/\/0\.0\.0\.0:3000\)$/);
    for (const host of ['127.8.9.10', 'app.localhost', '[::ffff:127.0.0.1]']) {
      assert.equal(problemsOf({ ...PRODUCTION_ENV, PUBLIC_API_URL: `https://${host}` }).length, 1, host);
    }
    for (const host of ['10.0.0.5', '127.example.com', 'localhost.example.com', '[2001:db8::1]']) {
      assert.equal(loadConfig({ ...PRODUCTION_ENV, PUBLIC_API_URL: `https://${host}` }, '/project').config.publicApiUrl, `https://${host}`, host);
    }
  });

  it('a bad public address is reported once, as a bad value', () => {
    assert.deepEqual(problemsOf({ ...PRODUCTION_ENV, PUBLIC_CDN_URL: 'ftp://cdn' }), ['PUBLIC_CDN_URL must be a http: or https: URL (got "ftp://cdn")']);
  });

  it('lists only the missing production variables', () => {
    const { JWT_SECRET: _omitJwt, ADMIN_CODE: _omitAdmin, ...partial } = PRODUCTION_ENV;
    const [problem] = problemsOf(partial);
    assert.match(problem, /JWT_SECRET, ADMIN_CODE$/);
    assert.ok(!problem.includes('DATABASE_URL'));
  });

  it('production refuses a JWT_SECRET shorter than 32 bytes, naming the minimum; development only warns', () => {
    assert.deepEqual(problemsOf({ ...PRODUCTION_ENV, JWT_SECRET: 'x' }),
      ['JWT_SECRET must be at least 32 bytes in production (it is the HS256 signing key; got 1): `openssl rand -base64 48` makes one']);
    // Bytes, not characters: 11 three-byte characters are 33 bytes.
    assert.equal(loadConfig({ ...PRODUCTION_ENV, JWT_SECRET: '€'.repeat(11) }, '/project').config.jwtSecret, '€'.repeat(11));
    assert.equal(problemsOf({ ...PRODUCTION_ENV, JWT_SECRET: 'y'.repeat(31) }).length, 1);
    const { warnings } = loadConfig({ JWT_SECRET: 'x' }, '/project');
    assert.deepEqual(warnings, ['JWT_SECRET is shorter than 32 bytes: production refuses such a secret']);
  });

  it('starts in production when everything required is set', () => {
    const { config, warnings } = loadConfig(PRODUCTION_ENV, '/project');
    assert.equal(config.isProduction, true);
    assert.deepEqual(warnings, []);
  });

  it('honours DISABLE_RATE_LIMIT and USE_LOCAL_POSTGRES in development only, warning otherwise', () => {
    const { config, warnings } = loadConfig(
      { ...PRODUCTION_ENV, DISABLE_RATE_LIMIT: 'true', USE_LOCAL_POSTGRES: 'true' }, '/project');
    assert.equal(config.disableRateLimit, false);
    assert.equal(config.useLocalPostgres, false);
    assert.equal(warnings.length, 2);
    assert.ok(warnings.some((w) => w.startsWith('DISABLE_RATE_LIMIT')));
    assert.ok(warnings.some((w) => w.startsWith('USE_LOCAL_POSTGRES')));
  });
});

describe('configuration: identity and the edge', () => {
  const ecPem = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('has documented defaults for tokens, origins and limits', () => {
    const { config } = loadConfig({}, '/project');
    assert.equal(config.jwtTtlSeconds, 3600);
    assert.equal(config.jwtIssuer, 'rs-game-server');
    assert.equal(config.jwtAudience, 'rs-game');
    assert.equal(config.idpConfigured, false);
    assert.equal(config.idpPublicKey, undefined);
    assert.equal(config.idpJwksUrl, undefined);
    assert.equal(config.anonymousTtlSeconds, 86_400);
    assert.equal(config.tempUserCleanupSeconds, 600);
    assert.deepEqual(config.corsFrontendOrigins, ['https://game.example']);
    assert.equal(config.corsStaticHost, 'game.pages.example');
    assert.equal(config.corsServerOrigin, 'https://game-server.hosting.example');
    assert.equal(config.corsServerPreviewHost, 'hosting.example');
    assert.deepEqual(config.corsSocialHosts, ['social-one.example', 'social-two.example']);
    assert.equal(config.corsIdpHost, 'idp.example');
    assert.equal(config.trustProxy, 0);
    // The spec's REST and authentication limits are production's; development raises them for local load tests.
    const production = loadConfig(PRODUCTION_ENV, '/project').config;
    assert.equal(production.rateLimitRestPerMinute, 100);
    assert.equal(production.rateLimitAuthPerMinute, 10);
    assert.equal(config.rateLimitRestPerMinute, DEVELOPMENT_RATE_LIMIT);
    assert.equal(config.rateLimitAuthPerMinute, DEVELOPMENT_RATE_LIMIT);
    assert.equal(config.rateLimitBlockSeconds, 60);
    assert.equal(config.wsMessagesPerSecond, 60);
    assert.equal(config.rateLimitKeyPrefix, 'rl');
  });

  it('under NODE_ENV=test the REST and auth limits default high so unrelated suites never trip them; explicit values win', () => {
    const test = loadConfig({ NODE_ENV: 'test' }, '/project').config;
    assert.equal(test.rateLimitRestPerMinute, TEST_RATE_LIMIT);
    assert.equal(test.rateLimitAuthPerMinute, TEST_RATE_LIMIT);
    assert.equal(test.wsMessagesPerSecond, 60);
    const explicit = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_REST_PER_MINUTE: '100', RATE_LIMIT_AUTH_PER_MINUTE: '10' }, '/project').config;
    assert.equal(explicit.rateLimitRestPerMinute, 100);
    assert.equal(explicit.rateLimitAuthPerMinute, 10);
    assert.equal(loadConfig(PRODUCTION_ENV, '/project').config.rateLimitRestPerMinute, 100);
  });

  it('reads the identity, origin and limit variables', () => {
    const pem = ecPem();
    const { config } = loadConfig({
      JWT_TTL_SECONDS: '900', JWT_ISSUER: 'iss', JWT_AUDIENCE: 'aud', IDP_PUBLIC_KEY: pem.replaceAll('\n', '\\n'),
      PUBLIC_IDP_APP_ID: 'app', IDP_ISSUER: 'https://login.idp.example', ANONYMOUS_TTL_SECONDS: '3600',
      TEMP_USER_CLEANUP_SECONDS: '30', CORS_FRONTEND_ORIGINS: 'https://a.example, https://b.example:8443',
      CORS_STATIC_HOST: 'a.pages.dev', CORS_SERVER_ORIGIN: 'https://api.a.example', CORS_SERVER_PREVIEW_HOST: 'up.railway.app',
      CORS_SOCIAL_HOSTS: 'one.example,two.example,three.example', CORS_IDP_HOST: 'auth.example', TRUST_PROXY: 'true',
      RATE_LIMIT_REST_PER_MINUTE: '300', RATE_LIMIT_AUTH_PER_MINUTE: '20', RATE_LIMIT_BLOCK_SECONDS: '120',
      RATE_LIMIT_KEY_PREFIX: 'game', WS_MESSAGES_PER_SECOND: '30',
    }, '/project');
    assert.equal(config.jwtTtlSeconds, 900);
    assert.equal(config.idpPublicKey, pem, 'escaped newlines restored');
    assert.equal(config.idpConfigured, true);
    assert.equal(config.idpIssuer, 'https://login.idp.example');
    assert.deepEqual(config.corsFrontendOrigins, ['https://a.example', 'https://b.example:8443']);
    assert.deepEqual(config.corsSocialHosts, ['one.example', 'two.example', 'three.example']);
    assert.equal(config.trustProxy, 1);
    assert.equal(config.rateLimitBlockSeconds, 120);
    assert.equal(config.wsMessagesPerSecond, 30);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }, '/project').config.trustProxy, 2);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }, '/project').config.trustProxy, 0);
    const jwks = loadConfig({ IDP_JWKS_URL: 'https://idp.example/.well-known/jwks.json', PUBLIC_IDP_APP_ID: 'app' }, '/project').config;
    assert.equal(jwks.idpConfigured, true);
    assert.equal(loadConfig({ IDP_JWKS_URL: 'http://127.0.0.1:9999/jwks', PUBLIC_IDP_APP_ID: 'a' }, '/project').config.idpConfigured, true);
  });

  const weakRsa = () => generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const p384 = () => generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const refused: Array<[string, Record<string, string>]> = [
    ['JWT_TTL_SECONDS', { JWT_TTL_SECONDS: '10' }],
    ['JWT_TTL_SECONDS', { JWT_TTL_SECONDS: 'forever' }],
    ['IDP_PUBLIC_KEY', { IDP_PUBLIC_KEY: 'not a key', PUBLIC_IDP_APP_ID: 'a' }],
    ['IDP_PUBLIC_KEY', { IDP_PUBLIC_KEY: weakRsa(), PUBLIC_IDP_APP_ID: 'a' }],
    ['IDP_PUBLIC_KEY', { IDP_PUBLIC_KEY: p384(), PUBLIC_IDP_APP_ID: 'a' }],
    ['IDP_JWKS_URL', { IDP_JWKS_URL: 'ftp://idp.example/jwks', PUBLIC_IDP_APP_ID: 'a' }],
    ['IDP_JWKS_URL', { IDP_JWKS_URL: 'http://idp.example/jwks', PUBLIC_IDP_APP_ID: 'a' }],
    ['IDP_PUBLIC_KEY and IDP_JWKS_URL', { IDP_PUBLIC_KEY: ecPem(), IDP_JWKS_URL: 'https://idp.example/jwks', PUBLIC_IDP_APP_ID: 'a' }],
    ['PUBLIC_IDP_APP_ID', { IDP_JWKS_URL: 'https://idp.example/jwks' }],
    ['CORS_FRONTEND_ORIGINS', { CORS_FRONTEND_ORIGINS: '*' }],
    ['CORS_FRONTEND_ORIGINS', { CORS_FRONTEND_ORIGINS: 'https://a.example/path' }],
    ['CORS_STATIC_HOST', { CORS_STATIC_HOST: '*.pages.dev' }],
    ['CORS_STATIC_HOST', { CORS_STATIC_HOST: 'https://pages.dev' }],
    ['CORS_SOCIAL_HOSTS', { CORS_SOCIAL_HOSTS: 'one.example,https://two.example' }],
    ['CORS_SERVER_ORIGIN', { CORS_SERVER_ORIGIN: 'https://a.example,https://b.example' }],
    ['CORS_IDP_HOST', { CORS_IDP_HOST: 'Idp.Example' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'lots' }],
    ['TRUST_PROXY', { TRUST_PROXY: '11' }],
    ['RATE_LIMIT_REST_PER_MINUTE', { RATE_LIMIT_REST_PER_MINUTE: '0' }],
    ['RATE_LIMIT_AUTH_PER_MINUTE', { RATE_LIMIT_AUTH_PER_MINUTE: 'ten' }],
    ['RATE_LIMIT_BLOCK_SECONDS', { RATE_LIMIT_BLOCK_SECONDS: '-1' }],
    ['WS_MESSAGES_PER_SECOND', { WS_MESSAGES_PER_SECOND: '0' }],
    ['ANONYMOUS_TTL_SECONDS', { ANONYMOUS_TTL_SECONDS: '5' }],
  ];
  for (const [name, env] of refused) {
    it(`refuses ${JSON.stringify(env).slice(0, 90)} naming ${name}`, () => {
      const problems = problemsOf(env);
      assert.ok(problems.some((problem) => problem.startsWith(name)), problems.join('; '));
    });
  }
});

describe('configuration: the declarations', () => {
  it('declare each variable once, in one area, filling its own Config field', () => {
    const declared = CONFIG_GROUPS.flatMap((group) => Object.entries(group.variables));
    assert.equal(declared.length, Object.keys(VARIABLES).length, 'no field is declared in two areas');
    const names = declared.map(([, variable]) => variable.name);
    assert.deepEqual(names.filter((name, i) => names.indexOf(name) !== i), [], 'no variable is declared twice');
    for (const name of names) assert.match(name, /^[A-Z][A-Z0-9_]*$/);
    const { config } = loadConfig({}, '/project');
    assert.deepEqual(Object.keys(config).sort(), [...Object.keys(VARIABLES), 'isProduction', 'idpConfigured'].sort());
  });

  it('name the secrets, which never reach a client or a log line', () => {
    const secrets = Object.values(VARIABLES).filter((variable) => variable.secret).map((variable) => variable.name).sort();
    assert.deepEqual(secrets, ['ADMIN_CODE', 'IDP_APP_SECRET', 'JWT_SECRET', 'METRICS_TOKEN', 'VOICE_API_KEY', 'VOICE_API_SECRET']);
    const { config } = loadConfig({
      JWT_SECRET: 'j', ADMIN_CODE: 'a', IDP_APP_SECRET: 'i', VOICE_API_KEY: 'k', VOICE_API_SECRET: 's', VOICE_URL: 'wss://v.example', METRICS_TOKEN: 'm',
    }, '/project');
    assert.deepEqual(secretValues(config).sort(), ['a', 'i', 'j', 'k', 'm', 's']);
  });

  it('hold the production rules: required variables and the public addresses given to clients', () => {
    assert.deepEqual(REQUIRED_IN_PRODUCTION, ['DATABASE_URL', 'JWT_SECRET', 'ADMIN_CODE', 'PUBLIC_IDP_APP_ID', 'IDP_APP_SECRET']);
    assert.deepEqual(PUBLIC_ADDRESS_VARIABLES, ['PUBLIC_API_URL', 'PUBLIC_WS_URL', 'PUBLIC_CDN_URL']);
  });
});
