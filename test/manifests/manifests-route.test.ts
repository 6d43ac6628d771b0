import assert from 'node:assert/strict';
import express from 'express';
import { createManifestsRouter } from '../../src/http/routes/manifests.ts';
import { readManifestDir } from '../../src/manifests/manifest-cache.ts';
import { toManifestFiles } from '../../src/manifests/manifest-file.ts';
import { listen, rawRequest, type RunningServer } from './support/http.ts';
import { BUNDLED_MANIFESTS } from './support/temp-dir.ts';

describe('GET /manifests/{file}', () => {
  let server: RunningServer;
  let files: Map<string, Buffer>;

  before(async () => {
    files = await readManifestDir(BUNDLED_MANIFESTS);
    const app = express();
    app.use(createManifestsRouter(toManifestFiles(files)));
    server = await listen(app);
  });

  after(() => server.close());

  it('serves a root manifest with the cache header and an ETag', async () => {
    const res = await rawRequest(server.url, '/manifests/npcs.json');
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'public, max-age=300, must-revalidate');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.match(String(res.headers.etag), /^"[A-Za-z0-9_-]+"$/);
    assert.ok(res.body.equals(files.get('npcs.json')!));
  });

  it('serves manifests in subfolders', async () => {
    const res = await rawRequest(server.url, '/manifests/items/food.json');
    assert.equal(res.status, 200);
    assert.ok(res.body.equals(files.get('items/food.json')!));
  });

  it('answers 304 without a body when If-None-Match matches, and 200 when it does not', async () => {
    const first = await rawRequest(server.url, '/manifests/stores.json');
    const etag = String(first.headers.etag);
    const revalidated = await rawRequest(server.url, '/manifests/stores.json', { headers: { 'if-none-match': etag } });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.body.length, 0);
    assert.equal(revalidated.headers.etag, etag);
    assert.equal(revalidated.headers['cache-control'], 'public, max-age=300, must-revalidate');
    const weak = await rawRequest(server.url, '/manifests/stores.json', { headers: { 'if-none-match': `"x", W/${etag}` } });
    assert.equal(weak.status, 304);
    const stale = await rawRequest(server.url, '/manifests/stores.json', { headers: { 'if-none-match': '"stale"' } });
    assert.equal(stale.status, 200);
    assert.ok(stale.body.length > 0);
  });

  it('gives different files different ETags', async () => {
    const a = await rawRequest(server.url, '/manifests/npcs.json');
    const b = await rawRequest(server.url, '/manifests/biomes.json');
    assert.notEqual(a.headers.etag, b.headers.etag);
  });

  it('answers HEAD with headers only', async () => {
    const res = await rawRequest(server.url, '/manifests/npcs.json', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 0);
    assert.equal(Number(res.headers['content-length']), files.get('npcs.json')!.length);
  });

  const notFound = [
    '/manifests/no-such-file.json',
    '/manifests/',
    '/manifests/items',
    '/manifests/../package.json',
    '/manifests/..%2fpackage.json',
    '/manifests/..%2F..%2Fpackage.json',
    '/manifests/%2e%2e%2fpackage.json',
    '/manifests/%2e%2e/package.json',
    '/manifests/%252e%252e%252fpackage.json',
    '/manifests/..%252fpackage.json',
    '/manifests/items/..%2f..%2f..%2fpackage.json',
    '/manifests/items%2ffood.json',
    '/manifests/..%5c..%5cpackage.json',
    '/manifests/%E0%A4%A',
    '/manifests/npcs.json%00.png',
    '/manifests//etc/passwd',
  ];
  for (const path of notFound) {
    it(`answers 404 problem+json for ${path}`, async () => {
      const res = await rawRequest(server.url, path);
      assert.equal(res.status, 404);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      const problem = JSON.parse(res.body.toString('utf8'));
      assert.deepEqual(Object.keys(problem).sort(), ['code', 'detail', 'status', 'title', 'type']);
      assert.equal(problem.status, 404);
      assert.equal(problem.code, 'NOT_FOUND');
      assert.doesNotMatch(res.body.toString('utf8'), /"name"\s*:\s*"rs-game-server"/);
    });
  }

  it('leaves other methods to the rest of the app', async () => {
    const res = await rawRequest(server.url, '/manifests/npcs.json', { method: 'POST' });
    assert.equal(res.status, 404);
    assert.doesNotMatch(String(res.headers['content-type']), /problem\+json/);
  });

  it('serves string bodies and computes missing ETags', async () => {
    const app = express();
    app.use(createManifestsRouter(new Map([['music.json', { body: '[]' }]])));
    const small = await listen(app);
    try {
      const res = await rawRequest(small.url, '/manifests/music.json');
      assert.equal(res.status, 200);
      assert.equal(res.body.toString('utf8'), '[]');
      assert.ok(res.headers.etag);
    } finally {
      await small.close();
    }
  });
});
