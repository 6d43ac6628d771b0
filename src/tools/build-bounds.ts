/**
 * `npm run build:bounds`: writes $WORLD/assets/manifests/model-bounds.json from $WORLD/assets/models/*.glb
 * when the models changed (WORLD defaults to "world"). Runs before start, dev and build.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { buildModelBounds } from './model-bounds.ts';

const DEFAULT_TILE_SIZE = 1;

async function worldTileSize(manifestsDir: string): Promise<number> {
  try {
    const areas = JSON.parse(await readFile(join(manifestsDir, 'world-areas.json'), 'utf8')) as { tileSize?: unknown };
    return typeof areas.tileSize === 'number' && areas.tileSize > 0 ? areas.tileSize : DEFAULT_TILE_SIZE;
  } catch {
    return DEFAULT_TILE_SIZE;
  }
}

const world = resolve(process.env.WORLD ?? 'world');
const manifestsDir = join(world, 'assets', 'manifests');
const result = await buildModelBounds({
  modelsDir: join(world, 'assets', 'models'),
  manifestPath: join(manifestsDir, 'model-bounds.json'),
  hashPath: join(world, 'assets', '.model-bounds.sha256'),
  tileSize: await worldTileSize(manifestsDir),
});
if (result.models === 0) console.log('build:bounds: no models found; model-bounds.json left as it is');
else console.log(result.written ? 'model-bounds.json updated' : 'model-bounds.json up to date (models unchanged)');
