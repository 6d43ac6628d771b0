import { fileURLToPath } from 'node:url';
import type { GameData } from '../../../src/manifests/game-data.ts';
import { readManifestDir } from '../../../src/manifests/manifest-cache.ts';
import { validateManifests } from '../../../src/manifests/validate-manifests.ts';

const BUNDLED_MANIFESTS = fileURLToPath(new URL('../../../world/assets/manifests/', import.meta.url));

let cached: Promise<GameData> | undefined;

/** The bundled world's validated game data (loaded once per test run). */
export function bundledData(): Promise<GameData> {
  cached ??= readManifestDir(BUNDLED_MANIFESTS).then((files) => validateManifests(files));
  return cached;
}
