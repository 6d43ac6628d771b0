/** The README cannot drift from the code: its docker run line starts a production server, its links resolve. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { withConfigTable } from '../src/config/docs.ts';
import { PROJECT_ROOT } from './helpers/process.ts';
import { gameNodeFlags } from '../loadtest/lib/server-process.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
const dockerfile = fs.readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8');

describe('README', () => {
  it('its docker run line sets every variable production needs (with the Dockerfile\'s own environment)', () => {
    const command = /docker run [^`]*?\sgame-server(?=[`\n])/.exec(readme)?.[0];
    assert.ok(command, 'a docker run command in the README');
    const env: Record<string, string> = {};
    for (const [, name, value] of command.matchAll(/-e ([A-Z_]+)=(\S+)/g)) env[name] = value;
    for (const [, name, value] of dockerfile.matchAll(/^\s*(?:ENV )?(NODE_ENV|PORT|WORLD)=(\S+?)(?: \\)?$/gm)) env[name] ??= value;
    assert.equal(env.NODE_ENV, 'production', 'the image runs in production');
    const { config, warnings } = loadConfig(env, '/app'); // throws, listing the problems, when the line falls short
    assert.equal(config.isProduction, true);
    assert.deepEqual(warnings, []);
  });

  it('the image starts the server with the Node flags of npm start, which the benchmarks use too', () => {
    const command = /^CMD \[(.*)\]$/m.exec(dockerfile)?.[1];
    assert.ok(command, 'a CMD in the Dockerfile');
    const words = JSON.parse(`[${command}]`) as string[];
    assert.deepEqual(words.slice(1, -1), gameNodeFlags());
    assert.ok(gameNodeFlags().length > 0, 'npm start gives the server its flags');
    assert.ok(readme.includes(`node ${gameNodeFlags().join(' ')} src/start.js`), 'the README names the flags the image runs with');
  });

  it('the test suite runs with the Node flags of npm start (the same AsyncLocalStorage as production)', () => {
    const mocharc = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, '.mocharc.json'), 'utf8')) as { 'node-option'?: string[] };
    assert.deepEqual((mocharc['node-option'] ?? []).map((option) => `--${option}`), gameNodeFlags());
  });

  it('its configuration table is the one generated from src/config/variables.ts', () => {
    assert.ok(readme === withConfigTable(readme), 'README.md\'s configuration table differs from the declarations in src/config/variables.ts: run npm run docs:config');
  });

  it('links only to files that exist in the repository', () => {
    const links = [...readme.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map(([, target]) => target).filter((target) => !/^[a-z]+:/.test(target));
    assert.ok(links.includes('docs/game-server-interface.md'), 'the interface contract is linked inside the repository');
    for (const target of links) assert.ok(fs.existsSync(path.join(PROJECT_ROOT, target)), target);
    assert.ok(!readme.includes('../shared/'), 'no path outside the repository');
  });
});

/** The README's table of addresses: address → who may open it. */
function addressTable(): Map<string, string> {
  const section = /## Where things are, and who may open them\n([\s\S]*?)\n## /.exec(readme)?.[1];
  assert.ok(section, 'the README has its "Where things are" section');
  const rows = new Map<string, string>();
  for (const line of section.split('\n').filter((l) => l.startsWith('| `'))) {
    const [addresses, , who] = line.split('|').slice(1).map((cell) => cell.trim());
    for (const [, address] of addresses.matchAll(/`([^`]+)`/g)) rows.set(address, who);
  }
  return rows;
}

describe('README: where things are and who may open them @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('lists the operator and API addresses with who may open each, as the server answers them (no token, test mode)', async () => {
    const table = addressTable();
    const expected: Array<[string, RegExp, number]> = [
      ['/', /^anyone; in production only with `PLAY_PAGE=true`$/, 200],
      ['/api/openapi.json', /^anyone$/, 200],
      ['/health', /^anyone$/, 200],
      ['/status', /^anyone$/, 200],
      ['/env.js', /^anyone$/, 200],
      ['/metrics', /METRICS_TOKEN.*admin/, 401],
      ['/colyseus', /^admins/, 401],
      ['/operator/world-map', /^admins/, 401],
      ['/playground', /development only.*404 in test and production/, 404],
    ];
    for (const [address, who, status] of expected) {
      assert.match(table.get(address) ?? '(missing)', who, `README row for ${address}`);
      assert.equal((await fetch(`${server.baseUrl}${address}`)).status, status, `${address} without a token`);
    }
  });

  it('explains npm\'s engine warnings on install', () => {
    assert.match(readme, /EBADENGINE[\s\S]{0,400}warnings, not errors/);
  });
});
