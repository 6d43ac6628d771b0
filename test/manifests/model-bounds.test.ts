import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelBoundsFile } from '../../src/manifests/schemas/stations.ts';
import { boxModelToGlb } from '../../src/tools/box-models.ts';
import { buildModelBounds, modelBoundsEntry, readPositionBounds } from '../../src/tools/model-bounds.ts';
import { STATION_MODELS } from '../../src/tools/station-models.ts';
import { listFiles, makeTempDir, mtimes, pauseForMtime, removeTempDirs, WORLD_ASSETS } from './support/temp-dir.ts';

/** The shipped models: exact bounds (m), dimensions (m) and footprint (tiles) at scale 1.0 and tileSize 1. */
const SHIPPED = {
  altar: { min: [-1, 0, -0.5], max: [1, 1.1, 0.5], dimensions: [2, 1.1, 1], footprint: [2, 1] },
  anvil: { min: [-0.5, 0, -0.3], max: [0.5, 0.8, 0.3], dimensions: [1, 0.8, 0.6], footprint: [1, 1] },
  'bank-booth': { min: [-0.5, 0, -0.45], max: [0.5, 2.2, 0.45], dimensions: [1, 2.2, 0.9], footprint: [1, 1] },
  furnace: { min: [-1, 0, -1], max: [1, 2.5, 1], dimensions: [2, 2.5, 2], footprint: [2, 2] },
  range: { min: [-0.75, 0, -0.6], max: [0.75, 1, 0.6], dimensions: [1.5, 1, 1.2], footprint: [2, 2] },
  'rune-altar': { min: [-1.3, 0, -1.3], max: [1.3, 1.2, 1.3], dimensions: [2.6, 1.2, 2.6], footprint: [3, 3] },
} as const;

const vec = ([x, y, z]: readonly number[]) => ({ x, y, z });

describe('model bounds', function () {
  this.timeout(20_000);
  const modelsDir = join(WORLD_ASSETS, 'models');

  afterEach(removeTempDirs);

  it('reads the exact bounds of the shipped models from their POSITION accessors', async () => {
    const files = (await readdir(modelsDir)).filter((f) => f.endsWith('.glb')).sort();
    assert.deepEqual(files, Object.keys(SHIPPED).map((id) => `${id}.glb`).sort());
    for (const [id, expected] of Object.entries(SHIPPED)) {
      const entry = modelBoundsEntry(id, await readPositionBounds(await readFile(join(modelsDir, `${id}.glb`))), 1);
      assert.deepEqual(entry, {
        id,
        assetPath: `asset://models/${id}.glb`,
        bounds: { min: vec(expected.min), max: vec(expected.max) },
        dimensions: vec(expected.dimensions),
        footprint: { width: expected.footprint[0], depth: expected.footprint[1] },
      });
    }
  });

  it('the committed model-bounds.json matches the shipped models and is up to date', async () => {
    const committed = ModelBoundsFile.parse(JSON.parse(await readFile(join(WORLD_ASSETS, 'manifests', 'model-bounds.json'), 'utf8')));
    assert.equal(committed.tileSize, 1);
    assert.deepEqual(committed.models.map((m) => m.id), Object.keys(SHIPPED).sort());
    const dir = await makeTempDir('bounds-');
    const manifestPath = join(dir, 'model-bounds.json');
    const hashPath = join(dir, 'hash');
    await copyFile(join(WORLD_ASSETS, 'manifests', 'model-bounds.json'), manifestPath);
    await copyFile(join(WORLD_ASSETS, '.model-bounds.sha256'), hashPath);
    const result = await buildModelBounds({ modelsDir, manifestPath, hashPath, tileSize: 1 });
    assert.equal(result.written, false, 'the committed hash sidecar is stale: run npm run build:bounds');
  });

  describe('build', () => {
    let dir: string;
    let models: string;
    let manifestPath: string;
    let hashPath: string;
    const build = (now = '2030-01-01T00:00:00.000Z') =>
      buildModelBounds({ modelsDir: models, manifestPath, hashPath, tileSize: 1, now: () => new Date(now) });

    beforeEach(async () => {
      dir = await makeTempDir('bounds-build-');
      models = join(dir, 'models');
      manifestPath = join(dir, 'manifests', 'model-bounds.json');
      hashPath = join(dir, '.model-bounds.sha256');
      await mkdir(models, { recursive: true });
      for (const model of STATION_MODELS) await writeFile(join(models, `${model.id}.glb`), await boxModelToGlb(model));
    });

    it('writes exactly the spec fields', async () => {
      assert.equal((await build()).written, true);
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
      assert.deepEqual(Object.keys(manifest), ['generatedAt', 'tileSize', 'models']);
      assert.equal(manifest.generatedAt, '2030-01-01T00:00:00.000Z');
      for (const model of manifest.models) {
        assert.deepEqual(Object.keys(model), ['id', 'assetPath', 'bounds', 'dimensions', 'footprint']);
        assert.ok(Number.isInteger(model.footprint.width) && Number.isInteger(model.footprint.depth));
      }
      assert.deepEqual(manifest.models.find((m: { id: string }) => m.id === 'furnace').dimensions, { x: 2, y: 2.5, z: 2 });
    });

    it('rewrites nothing, not even generatedAt, when no model changed', async () => {
      await build('2030-01-01T00:00:00.000Z');
      const before = await mtimes(dir);
      const content = await readFile(manifestPath, 'utf8');
      await pauseForMtime();
      const second = await build('2031-06-06T00:00:00.000Z');
      assert.equal(second.written, false);
      assert.deepEqual(await mtimes(dir), before);
      assert.equal(await readFile(manifestPath, 'utf8'), content);
    });

    it('updates only the manifest when a model changes', async () => {
      await build();
      const before = JSON.parse(await readFile(manifestPath, 'utf8'));
      await writeFile(
        join(models, 'anvil.glb'),
        await boxModelToGlb({ id: 'anvil', boxes: [{ min: [-0.7, 0, -0.4], max: [0.7, 0.9, 0.4], color: [0.2, 0.2, 0.2] }] }),
      );
      const modelTimes = await mtimes(models);
      await pauseForMtime();

      assert.equal((await build('2030-02-02T00:00:00.000Z')).written, true);
      const after = JSON.parse(await readFile(manifestPath, 'utf8'));
      assert.equal(after.generatedAt, '2030-02-02T00:00:00.000Z');
      const anvil = after.models.find((m: { id: string }) => m.id === 'anvil');
      assert.deepEqual(anvil.dimensions, { x: 1.4, y: 0.9, z: 0.8 });
      assert.deepEqual(anvil.footprint, { width: 2, depth: 1 });
      const others = (list: { id: string }[]) => list.filter((m) => m.id !== 'anvil');
      assert.deepEqual(others(after.models), others(before.models));
      assert.deepEqual(await mtimes(models), modelTimes, 'model files are never rewritten');
    });

    it('notices added and removed models', async () => {
      await build();
      await rm(join(models, 'range.glb'));
      assert.equal((await build()).written, true);
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
      assert.ok(!manifest.models.some((m: { id: string }) => m.id === 'range'));
    });

    it('rebuilds when the manifest was deleted even though the models are unchanged', async () => {
      await build();
      await rm(manifestPath);
      assert.equal((await build()).written, true);
      assert.ok((await stat(manifestPath)).isFile());
    });

    it('writes nothing when there are no models at all', async () => {
      await rm(models, { recursive: true });
      const result = await build();
      assert.equal(result.written, false);
      assert.deepEqual(await listFiles(dir), []);
    });

    it('leaves no temporary files', async () => {
      await build();
      assert.ok((await listFiles(dir)).every((f) => !f.includes('.tmp-')));
    });
  });
});
