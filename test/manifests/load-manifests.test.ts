import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_FILE_PREFIX } from '../../src/manifests/atomic-write.ts';
import { ETAGS_FILE } from '../../src/manifests/manifest-cache.ts';
import { ManifestError } from '../../src/manifests/manifest-error.ts';
import { loadManifests, type LoadManifestsOptions } from '../../src/manifests/load-manifests.ts';
import { createAssetHostApp } from '../../src/tools/asset-host.ts';
import { listen, recordingApp, unreachableUrl, type RecordedRequest, type RunningServer } from './support/http.ts';
import { recordingLogger } from './support/logs.ts';
import { copyBundledManifests, listFiles, makeTempDir, mtimes, pauseForMtime, removeTempDirs } from './support/temp-dir.ts';

interface TestHost {
  url: string;
  /** The host's manifests folder; edit files here to change what it serves. */
  manifestsDir: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A real asset host on an ephemeral port serving a copy of the bundled world. */
async function startHost(): Promise<TestHost> {
  const root = await makeTempDir('asset-host-');
  const manifestsDir = join(root, 'manifests');
  await copyBundledManifests(manifestsDir);
  const { app, requests } = recordingApp(createAssetHostApp(root));
  const running: RunningServer = await listen(app);
  return { url: running.url, manifestsDir, requests, close: running.close };
}

const CONFLICTED = '<<<<<<< HEAD\n[]\n=======\n[{}]\n>>>>>>> feature\n';

describe('loadManifests', function () {
  this.timeout(20_000);
  const hosts: TestHost[] = [];
  let cacheDir: string;
  let offline: string;

  async function host(): Promise<TestHost> {
    const started = await startHost();
    hosts.push(started);
    return started;
  }

  function options(overrides: Partial<LoadManifestsOptions>): LoadManifestsOptions {
    return {
      cdnUrl: offline,
      productionCdnUrl: offline,
      cacheDir,
      mode: 'production',
      ci: false,
      skipManifests: false,
      timeoutMs: 3000,
      ...overrides,
    };
  }

  async function editJson(file: string, edit: (json: any) => void): Promise<void> {
    const json = JSON.parse(await readFile(file, 'utf8'));
    edit(json);
    await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
  }

  beforeEach(async () => {
    cacheDir = await makeTempDir('manifest-cache-');
    offline = await unreachableUrl();
  });

  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    await removeTempDirs();
  });

  describe('in production', () => {
    it('fetches every manifest into an empty cache and records the ETags', async () => {
      const cdn = await host();
      const result = await loadManifests(options({ cdnUrl: cdn.url }));
      assert.equal(result.source, 'asset-host');
      assert.ok(result.data);
      assert.ok(result.files.size > 25);
      assert.deepEqual(await listFiles(cacheDir), [...(await listFiles(cdn.manifestsDir)), ETAGS_FILE].sort());
      const npcs = await readFile(join(cacheDir, 'npcs.json'));
      assert.ok(npcs.equals(await readFile(join(cdn.manifestsDir, 'npcs.json'))));
      const etags = JSON.parse(await readFile(join(cacheDir, ETAGS_FILE), 'utf8'));
      assert.equal(Object.keys(etags).length, result.files.size);
      assert.ok(cdn.requests.every((r) => r.ifNoneMatch === null), 'nothing cached, nothing to revalidate');
    });

    it('revalidates with If-None-Match and rewrites nothing when nothing changed', async () => {
      const cdn = await host();
      await loadManifests(options({ cdnUrl: cdn.url }));
      const before = await mtimes(cacheDir);
      cdn.requests.length = 0;
      await pauseForMtime();

      const result = await loadManifests(options({ cdnUrl: cdn.url }));
      assert.equal(result.source, 'asset-host');
      assert.ok(cdn.requests.some((r) => r.path === '/manifests/npcs.json' && r.ifNoneMatch !== null));
      assert.deepEqual(await mtimes(cacheDir), before);
    });

    it('rewrites only the manifests whose content changed', async () => {
      const cdn = await host();
      await loadManifests(options({ cdnUrl: cdn.url }));
      const before = await mtimes(cacheDir);
      await pauseForMtime();
      await editJson(join(cdn.manifestsDir, 'npcs.json'), (npcs) => {
        npcs.push({ id: 'sheep', name: 'Sheep', role: 'townsfolk' });
      });

      const result = await loadManifests(options({ cdnUrl: cdn.url }));
      assert.equal(result.data?.npcsById.get('sheep')?.name, 'Sheep');
      const after = await mtimes(cacheDir);
      const rewritten = [...after].filter(([path, mtime]) => before.get(path) !== mtime).map(([path]) => path);
      assert.deepEqual(rewritten.sort(), [ETAGS_FILE, 'npcs.json']);
      assert.ok((await readFile(join(cacheDir, 'npcs.json'))).equals(await readFile(join(cdn.manifestsDir, 'npcs.json'))));
      assert.deepEqual(await listFiles(cacheDir), [...after.keys()].sort(), 'no temporary files are left');
      assert.ok(!(await listFiles(cacheDir)).some((f) => f.split('/').pop()!.startsWith(TEMP_FILE_PREFIX)));
    });

    it('falls back to the cache when the asset host is unreachable', async () => {
      await copyBundledManifests(cacheDir);
      const before = await mtimes(cacheDir);
      const logger = recordingLogger();
      const result = await loadManifests(options({ cdnUrl: offline, logger }));
      assert.equal(result.source, 'cache');
      assert.ok(result.data?.itemsById.has('coins'));
      assert.deepEqual(await mtimes(cacheDir), before);
      assert.ok(logger.entries.some((e) => e.level === 'warn' && /unreachable/.test(e.message)));
    });

    it('fails when the asset host is unreachable and the cache is empty', async () => {
      await assert.rejects(loadManifests(options({ cdnUrl: offline })), (error: unknown) => {
        assert.ok(error instanceof ManifestError);
        assert.match(error.message, /required manifests are missing/);
        return true;
      });
    });

    it('rejects a broken fetched file, keeps the last good cached copy and logs it', async () => {
      const cdn = await host();
      await loadManifests(options({ cdnUrl: cdn.url }));
      const goodStores = await readFile(join(cacheDir, 'stores.json'));
      const etagsBefore = JSON.parse(await readFile(join(cacheDir, ETAGS_FILE), 'utf8'));
      await writeFile(join(cdn.manifestsDir, 'stores.json'), CONFLICTED);
      await editJson(join(cdn.manifestsDir, 'prayers.json'), (prayers) => {
        prayers[0].name = 'Bark Skin';
      });
      const logger = recordingLogger();

      const result = await loadManifests(options({ cdnUrl: cdn.url, logger }));
      assert.equal(result.source, 'asset-host');
      assert.ok((await readFile(join(cacheDir, 'stores.json'))).equals(goodStores));
      assert.ok(result.files.get('stores.json')?.body.equals(goodStores), 'the good copy is served');
      assert.equal(result.data?.prayersById.get('bark_hide')?.name, 'Bark Skin', 'valid changes still apply');
      const rejection = logger.entries.find((e) => e.level === 'error' && e.details.file === 'stores.json');
      assert.ok(rejection, 'the rejection is logged');
      assert.match(String(rejection.details.err), /merge-conflict/);
      const etagsAfter = JSON.parse(await readFile(join(cacheDir, ETAGS_FILE), 'utf8'));
      assert.equal(etagsAfter['stores.json'], etagsBefore['stores.json'], 'the rejected ETag is not recorded');
    });

    it('keeps the whole cached set when fetched files break cross-references', async () => {
      const cdn = await host();
      await loadManifests(options({ cdnUrl: cdn.url }));
      const before = await mtimes(cacheDir);
      await editJson(join(cdn.manifestsDir, 'stores.json'), (stores) => {
        stores[0].stock.push({ itemId: 'unknown_widget', quantity: 1 });
      });
      const logger = recordingLogger();

      const result = await loadManifests(options({ cdnUrl: cdn.url, logger }));
      assert.equal(result.source, 'cache');
      assert.ok(!result.data?.storesById.get('brackenford_general_store')?.stock.some((s) => s.itemId === 'unknown_widget'));
      assert.deepEqual(await mtimes(cacheDir), before);
      assert.ok(logger.entries.some((e) => e.level === 'error' && /unknown_widget/.test(String(e.details.err))));
    });

    it('fetches even when local manifests exist', async () => {
      await copyBundledManifests(cacheDir);
      const cdn = await host();
      const result = await loadManifests(options({ cdnUrl: cdn.url }));
      assert.equal(result.source, 'asset-host');
      assert.ok(cdn.requests.some((r) => r.path === '/manifests/world-areas.json'));
    });
  });

  describe('with CI=true', () => {
    it('always fetches, like production', async () => {
      await copyBundledManifests(cacheDir);
      const cdn = await host();
      const result = await loadManifests(options({ cdnUrl: cdn.url, mode: 'test', ci: true }));
      assert.equal(result.source, 'asset-host');
      assert.ok(cdn.requests.length > 25);
    });

    it('fails on a broken fetched file instead of rejecting it', async () => {
      await copyBundledManifests(cacheDir);
      const cdn = await host();
      await writeFile(join(cdn.manifestsDir, 'biomes.json'), CONFLICTED);
      await assert.rejects(loadManifests(options({ cdnUrl: cdn.url, mode: 'test', ci: true })), /biomes\.json.*merge-conflict/s);
    });

    it('falls back to the cache when the asset host is unreachable', async () => {
      await copyBundledManifests(cacheDir);
      const result = await loadManifests(options({ cdnUrl: offline, mode: 'development', ci: true }));
      assert.equal(result.source, 'cache');
    });
  });

  describe('in development', () => {
    it('uses local manifests without contacting the asset host', async () => {
      await copyBundledManifests(cacheDir);
      const cdn = await host();
      const result = await loadManifests(options({ cdnUrl: cdn.url, mode: 'development' }));
      assert.equal(result.source, 'local');
      assert.ok(result.data?.npcsById.has('osric'));
      assert.deepEqual(cdn.requests, []);
    });

    it('fetches from the local asset host when there are no local manifests', async () => {
      const cdn = await host();
      const production = await host();
      const result = await loadManifests(options({ cdnUrl: cdn.url, productionCdnUrl: production.url, mode: 'development' }));
      assert.equal(result.source, 'asset-host');
      assert.ok(cdn.requests.length > 25);
      assert.deepEqual(production.requests, []);
      assert.ok((await listFiles(cacheDir)).includes('items/weapons.json'));
    });

    it('bootstraps from the production asset host when the local one is down and manifests are missing', async () => {
      const production = await host();
      const logger = recordingLogger();
      const result = await loadManifests(options({ cdnUrl: offline, productionCdnUrl: production.url, mode: 'development', logger }));
      assert.equal(result.source, 'production-asset-host');
      assert.ok(result.data?.storesById.size);
      assert.ok(production.requests.length > 25);
      assert.deepEqual(await listFiles(cacheDir), [...(await listFiles(production.manifestsDir)), ETAGS_FILE].sort());
      assert.ok(logger.entries.some((e) => e.level === 'warn' && /unavailable/.test(e.message)));
    });

    it('bootstraps when only some required manifests are missing, keeping the local files', async () => {
      await copyBundledManifests(cacheDir);
      await rm(join(cacheDir, 'stores.json'));
      await editJson(join(cacheDir, 'prayers.json'), (prayers) => {
        prayers[0].description = 'Local edit.';
      });
      const production = await host();
      await editJson(join(production.manifestsDir, 'prayers.json'), (prayers) => {
        prayers[0].description = 'Remote edit.';
      });
      const result = await loadManifests(options({ cdnUrl: offline, productionCdnUrl: production.url, mode: 'test' }));
      assert.equal(result.source, 'production-asset-host');
      assert.ok((await listFiles(cacheDir)).includes('stores.json'));
      assert.equal(result.data?.prayersById.get('bark_hide')?.description, 'Remote edit.');
    });

    it('fails with the missing files named when no asset host is reachable', async () => {
      await assert.rejects(loadManifests(options({ mode: 'development' })), /npcs\.json.*no asset host could be reached/s);
    });

    it('throws naming the file when a local manifest is broken', async () => {
      await copyBundledManifests(cacheDir);
      await writeFile(join(cacheDir, 'quests.json'), CONFLICTED);
      await assert.rejects(loadManifests(options({ mode: 'development' })), (error: unknown) => {
        assert.ok(error instanceof ManifestError);
        assert.equal(error.file, 'quests.json');
        assert.match(error.message, /quests\.json: contains merge-conflict markers/);
        return true;
      });
    });
  });

  describe('with SKIP_MANIFESTS', () => {
    it('neither fetches nor validates, and serves what is cached', async () => {
      await copyBundledManifests(cacheDir);
      await writeFile(join(cacheDir, 'npcs.json'), CONFLICTED);
      const cdn = await host();
      const result = await loadManifests(options({ cdnUrl: cdn.url, mode: 'production', ci: true, skipManifests: true }));
      assert.equal(result.source, 'skipped');
      assert.equal(result.data, null);
      assert.equal(result.files.get('npcs.json')?.body.toString('utf8'), CONFLICTED);
      assert.deepEqual(cdn.requests, []);
    });

    it('works with an empty cache directory', async () => {
      const result = await loadManifests(options({ cacheDir: join(cacheDir, 'missing'), skipManifests: true }));
      assert.equal(result.files.size, 0);
    });
  });
});
