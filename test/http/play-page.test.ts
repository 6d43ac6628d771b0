/**
 * The play page is served at `/` when no client build is present (docs/frontend.md): always outside production,
 * in production only with PLAY_PAGE=true; a present build wins. Its files are the browser folder's (src/web/),
 * under a strict Content-Security-Policy, and every module it imports is there.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { WEB_DIR } from '../../src/http/web-files.ts';
import { createLogger } from '../../src/logger.ts';
import { startServer, type GameServer } from '../../src/server.ts';
import { json } from '../helpers/http.ts';
import { pgliteTemplate, startTestServer, testEnv, type TestServer } from '../helpers/server.ts';

const NO_BUILD = path.join(os.tmpdir(), 'no-such-client-build');

async function expectProblem404(response: Response, what: string): Promise<void> {
  assert.equal(response.status, 404, what);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
  assert.equal((await json(response)).code, 'NOT_FOUND', what);
}

/** The relative imports of a browser module, resolved to URL paths next to its own. */
function importsOf(urlPath: string, source: string): string[] {
  const found = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/g)].map((m) => m[1]);
  return found.map((spec) => new URL(spec, `http://x${urlPath}`).pathname);
}

async function startProduction(extra: Record<string, string>): Promise<GameServer & { baseUrl: string }> {
  const { config } = loadConfig(testEnv({
    NODE_ENV: 'production',
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://unused@127.0.0.1:1/replaced-below',
    JWT_SECRET: 'jwt-secret-play-page-5e4d3c2b1a09',
    ADMIN_CODE: 'admin-code-play-page',
    PUBLIC_IDP_APP_ID: 'app-play-page',
    IDP_APP_SECRET: 'idp-secret-play-page',
    PUBLIC_CDN_URL: 'https://assets.invalid',
    PUBLIC_API_URL: 'https://game-server.example',
    PUBLIC_WS_URL: 'wss://game-server.example/ws',
    CLIENT_BUILD_DIR: NO_BUILD,
    ...extra,
  }));
  const databaseUrl = process.env.DATABASE_URL;
  const server = await startServer({ config: { ...config, databaseUrl }, logger: createLogger(config), pgliteTemplate: databaseUrl ? undefined : await pgliteTemplate() });
  return { ...server, baseUrl: `http://127.0.0.1:${server.port}` };
}

describe('the play page, with no client build @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ CLIENT_BUILD_DIR: NO_BUILD });
  });
  after(() => server?.close());

  it('is served at / with a strict Content-Security-Policy, revalidated on each load', async () => {
    const response = await fetch(`${server.baseUrl}/`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    const csp = response.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) assert.ok(csp.includes(directive), directive);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    const html = await response.text();
    assert.match(html, /<script type="module" src="\/web\/play\/main\.js"><\/script>/);
    assert.doesNotMatch(html, /<script>|\sstyle="|\son[a-z]+="/, 'no inline script, style or handler (the policy would block them)');
    assert.equal((await fetch(`${server.baseUrl}/`, { method: 'HEAD' })).status, 200);
  });

  it('serves every module the page imports, as JavaScript, and nothing else from the browser folder', async () => {
    const queue = ['/web/play/main.js'];
    const seen = new Set<string>();
    while (queue.length > 0 && seen.size < 100) {
      const urlPath = queue.shift()!;
      if (seen.has(urlPath)) continue;
      seen.add(urlPath);
      const response = await fetch(`${server.baseUrl}${urlPath}`);
      assert.equal(response.status, 200, urlPath);
      assert.match(response.headers.get('content-type') ?? '', /^(text|application)\/javascript/, urlPath);
      queue.push(...importsOf(urlPath, await response.text()));
    }
    assert.ok(seen.has('/web/play/lib/protocol-client.js') && seen.has('/web/shared/labels.js'), [...seen].join(', '));
    const local = (p: string) => path.join(WEB_DIR, p.replace(/^\/web\//, ''));
    for (const urlPath of seen) assert.ok(fs.existsSync(local(urlPath)), urlPath);
    for (const file of ['/web/play/play.css', '/web/play/icon.svg']) assert.equal((await fetch(`${server.baseUrl}${file}`)).status, 200, file);
  });

  it('answers 404 for the world map\'s files, paths leaving the folder, other files and other methods', async () => {
    for (const urlPath of ['/web/world-map/map.js', '/web/play/../../http/app.ts', '/web/play/%2e%2e/%2e%2e/config.ts', '/web/play/missing.js',
      '/web/play/Main.js', '/web/shared/', '/web/', '/play', '/index.html']) {
      await expectProblem404(await fetch(`${server.baseUrl}${urlPath}`), urlPath);
    }
    await expectProblem404(await fetch(`${server.baseUrl}/`, { method: 'POST' }), 'POST /');
  });
});

describe('the play page beside a client build @db', function () {
  this.timeout(60_000);
  let dir: string;
  let server: TestServer;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-build-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>the real client</title>');
    server = await startTestServer({ CLIENT_BUILD_DIR: dir });
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the build wins: / is its index.html and the play page\'s files are not served', async () => {
    assert.match(await (await fetch(`${server.baseUrl}/`)).text(), /the real client/);
    await expectProblem404(await fetch(`${server.baseUrl}/web/play/main.js`), '/web/play/main.js');
  });
});

describe('the play page in production @db', function () {
  this.timeout(60_000);

  it('is not served unless the operator enables it (PLAY_PAGE=true)', async () => {
    const off = await startProduction({});
    try {
      await expectProblem404(await fetch(`${off.baseUrl}/`), '/ without PLAY_PAGE');
      await expectProblem404(await fetch(`${off.baseUrl}/web/play/main.js`), 'a module without PLAY_PAGE');
    } finally {
      await off.close();
    }
    const on = await startProduction({ PLAY_PAGE: 'true' });
    try {
      const page = await fetch(`${on.baseUrl}/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /\/web\/play\/main\.js/);
    } finally {
      await on.close();
    }
  });
});
