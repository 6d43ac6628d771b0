import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, loadConfig, REQUIRED_IN_PRODUCTION } from '../src/config.ts';

const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://game@db/game',
  JWT_SECRET: 'a-production-signing-secret',
  ADMIN_CODE: 'admin-code',
  PUBLIC_IDP_APP_ID: 'app-id',
  IDP_APP_SECRET: 'idp-secret',
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
  for (const [name, value] of badValues) {
    it(`refuses ${name}=${value} with a message naming the variable`, () => {
      const problems = problemsOf({ [name]: value });
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
    assert.equal(problems.length, 1);
    for (const name of REQUIRED_IN_PRODUCTION) assert.ok(problems[0].includes(name), `${name} listed`);
  });

  it('lists only the missing production variables', () => {
    const { JWT_SECRET: _omitJwt, ADMIN_CODE: _omitAdmin, ...partial } = PRODUCTION_ENV;
    const [problem] = problemsOf(partial);
    assert.match(problem, /JWT_SECRET, ADMIN_CODE$/);
    assert.ok(!problem.includes('DATABASE_URL'));
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
