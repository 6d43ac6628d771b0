import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAssetHost } from '../../src/tools/asset-host.ts';
import { rawRequest, wrap, type RunningServer } from './support/http.ts';
import { WORLD_ASSETS } from './support/temp-dir.ts';

describe('dev asset host', () => {
  let host: RunningServer;

  before(async () => {
    host = wrap(await startAssetHost({ root: WORLD_ASSETS, port: 0 }));
  });

  after(() => host.close());

  it('listens on the requested port (0 = any free one)', () => {
    assert.ok((host.server.address() as AddressInfo).port > 0);
  });

  it('answers /health', async () => {
    const res = await rawRequest(host.url, '/health');
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(res.body.toString('utf8')).status, 'ok');
  });

  it('serves manifests, subfolders included, with ETags and 304 revalidation', async () => {
    const res = await rawRequest(host.url, '/manifests/gathering/fishing.json');
    assert.equal(res.status, 200);
    assert.ok(res.body.equals(await readFile(join(WORLD_ASSETS, 'manifests', 'gathering', 'fishing.json'))));
    assert.ok(res.headers.etag);
    const again = await rawRequest(host.url, '/manifests/gathering/fishing.json', { headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.status, 304);
  });

  it('serves models, music of both categories and environment assets', async () => {
    const model = await rawRequest(host.url, '/models/anvil.glb');
    assert.equal(model.status, 200);
    assert.equal(model.body.subarray(0, 4).toString('latin1'), 'glTF');
    for (const path of ['/audio/music/normal/brackenford-morning.mp3', '/audio/music/combat/steel-rain.mp3']) {
      const track = await rawRequest(host.url, path);
      assert.equal(track.status, 200, path);
      assert.equal(track.body[0], 0xff);
    }
    assert.equal((await rawRequest(host.url, '/world/environment.json')).status, 200);
  });

  it('never serves dot-files, files outside the served folders or traversal attempts', async () => {
    for (const path of [
      '/.model-bounds.sha256',
      '/manifests/../.model-bounds.sha256',
      '/manifests/..%2f.model-bounds.sha256',
      '/manifests/..%2f..%2f..%2fpackage.json',
      '/models/%2e%2e/manifests/npcs.json',
      '/package.json',
    ]) {
      const res = await rawRequest(host.url, path);
      assert.ok(res.status === 404 || res.status === 403 || res.status === 400, `${path} answered ${res.status}`);
      assert.doesNotMatch(res.body.toString('utf8'), /rs-game-server|^[0-9a-f]{64}/);
    }
  });
});
