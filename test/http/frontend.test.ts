import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheControlFor, IMMUTABLE, REVALIDATE } from '../../src/http/frontend.ts';
import { json } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const INDEX_MARKER = '<!-- client-build-index -->';
const IMMUTABLE_FILES: Record<string, string> = {
  'assets/app-DQXpmTWQ.js': 'console.log("vite chunk");',
  'assets/style-C4SPBCkT.css': 'body{}',
  'static/main.3f2a1b9c.js': 'console.log("hex-hashed");',
};
const PLAIN_FILES: Record<string, string> = {
  'robots.txt': 'User-agent: *',
  'player-controls.js': 'console.log("not hashed");',
};
/** Files the build happens to hold under server prefixes: they must never be served from there. */
const SHADOWING_FILES = ['metrics/leak.txt', 'status/leak.txt', 'health/leak.html', 'colyseus/leak.txt', 'playground/index.html'];

const EXCLUDED_PREFIXES = ['/api', '/ws', '/manifests', '/health', '/status', '/env.js', '/metrics', '/colyseus', '/playground', '/matchmake'];

function writeBuild(dir: string): void {
  const files = { 'index.html': `<!doctype html><title>game</title>${INDEX_MARKER}`, ...IMMUTABLE_FILES, ...PLAIN_FILES };
  for (const file of SHADOWING_FILES) files[file as keyof typeof files] = `${INDEX_MARKER} leaked`;
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
}

async function expectNotFromBuild(response: Response, what: string): Promise<void> {
  const text = await response.text();
  assert.ok(!text.includes(INDEX_MARKER), `${what} must not be answered from the client build (got ${response.status})`);
  assert.doesNotMatch(response.headers.get('content-type') ?? '', /text\/html/, what);
}

async function expectProblem404(response: Response, what: string): Promise<void> {
  assert.equal(response.status, 404, what);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
  assert.equal((await json(response)).code, 'NOT_FOUND', what);
}

describe('frontend: the client build served by the game server @db', function () {
  this.timeout(60_000);
  let dir: string;
  let server: TestServer;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-build-'));
    writeBuild(dir);
    server = await startTestServer({ CLIENT_BUILD_DIR: dir });
  });

  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html, not cached, for page routes (deep links) on GET and HEAD', async () => {
    for (const page of ['/', '/play', '/world/area-1/', '/account/settings']) {
      const response = await fetch(`${server.baseUrl}${page}`);
      assert.equal(response.status, 200, page);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/, page);
      assert.equal(response.headers.get('cache-control'), REVALIDATE, page);
      assert.ok((await response.text()).includes(INDEX_MARKER), page);
    }
    const head = await fetch(`${server.baseUrl}/play`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('cache-control'), REVALIDATE);
  });

  it('serves index.html itself with no-cache', async () => {
    const response = await fetch(`${server.baseUrl}/index.html`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), REVALIDATE);
    assert.ok((await response.text()).includes(INDEX_MARKER));
  });

  it('caches content-hashed files for a year as immutable, other files no-cache', async () => {
    for (const [name, content] of Object.entries(IMMUTABLE_FILES)) {
      const response = await fetch(`${server.baseUrl}/${name}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('cache-control'), IMMUTABLE, name);
      assert.equal(await response.text(), content, name);
    }
    for (const [name, content] of Object.entries(PLAIN_FILES)) {
      const response = await fetch(`${server.baseUrl}/${name}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('cache-control'), REVALIDATE, name);
      assert.ok(response.headers.get('etag'), `${name} can be revalidated`);
      assert.equal(await response.text(), content, name);
    }
  });

  it('answers 404 (problem document) for missing files with an extension, not index.html', async () => {
    for (const missing of ['/assets/app-00000000.js', '/favicon.ico', '/world/map.png', '/play/data.json']) {
      await expectProblem404(await fetch(`${server.baseUrl}${missing}`), missing);
    }
  });

  it('never falls back to index.html (or serves a build file) under a server prefix', async () => {
    for (const prefix of EXCLUDED_PREFIXES) {
      for (const variant of [`${prefix}/some/page`, `${prefix.toUpperCase()}/page`, `${prefix}//page`]) {
        await expectNotFromBuild(await fetch(`${server.baseUrl}${variant}`), variant);
      }
    }
    // Percent-encoded server paths are not pages either.
    await expectNotFromBuild(await fetch(`${server.baseUrl}/%61pi/some/page`), '/%61pi/some/page');
    for (const file of SHADOWING_FILES) {
      const response = await fetch(`${server.baseUrl}/${file}`);
      assert.ok(response.status >= 400, `/${file} answers ${response.status}`);
      await expectNotFromBuild(response, `/${file}`);
    }
    // The server's own answers are untouched.
    assert.equal((await fetch(`${server.baseUrl}/health`)).status, 200);
    assert.match((await fetch(`${server.baseUrl}/env.js`)).headers.get('content-type') ?? '', /javascript/);
    await expectProblem404(await fetch(`${server.baseUrl}/manifests/no-such-manifest`), '/manifests/no-such-manifest');
  });

  it('answers other methods on page routes with 404', async () => {
    await expectProblem404(await fetch(`${server.baseUrl}/play`, { method: 'POST' }), 'POST /play');
  });

  it('does not serve files outside the build directory', async () => {
    const secret = path.join(path.dirname(dir), `outside-${path.basename(dir)}.txt`);
    fs.writeFileSync(secret, 'content outside the build');
    try {
      for (const attempt of [`/..%2f${path.basename(secret)}`, `/%2e%2e/${path.basename(secret)}`, `/assets/..%2f..%2f${path.basename(secret)}`]) {
        const response = await fetch(`${server.baseUrl}${attempt}`);
        assert.ok(response.status >= 400, `${attempt} answers ${response.status}`);
        assert.ok(!(await response.text()).includes('content outside the build'), attempt);
      }
    } finally {
      fs.rmSync(secret, { force: true });
    }
  });

  it('classifies hashed names by the build-relative path', () => {
    assert.equal(cacheControlFor('assets/anything.js'), IMMUTABLE);
    assert.equal(cacheControlFor('chunk.0a1b2c3d4e.js'), IMMUTABLE);
    assert.equal(cacheControlFor('index.html'), REVALIDATE);
    assert.equal(cacheControlFor('player-controls.js'), REVALIDATE);
    assert.equal(cacheControlFor('img/assets/logo.png'), REVALIDATE);
  });
});

describe('frontend: no client build @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ CLIENT_BUILD_DIR: path.join(os.tmpdir(), 'no-such-client-build') });
  });
  after(() => server?.close());

  // Without a build, outside production, `/` is the play page (test/http/play-page.test.ts; in production without
  // PLAY_PAGE it is a 404 there too). Nothing else falls back to a page.
  it('serves no build: other page routes are 404 problem documents, / is the play page', async () => {
    await expectProblem404(await fetch(`${server.baseUrl}/play`), '/play');
    await expectProblem404(await fetch(`${server.baseUrl}/account/settings`), '/account/settings');
    assert.match(await (await fetch(`${server.baseUrl}/`)).text(), /\/web\/play\/main\.js/);
  });
});
