/** The bundled world's manifests read from disk, in the shape the play page's world-data module takes. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildWorldData, WORLD_MANIFESTS } from '../../../src/web/play/lib/world-data.js';
import { ITEM_FILES } from '../../../src/web/play/lib/rest-client.js';

const DIR = fileURLToPath(new URL('../../../world/assets/manifests/', import.meta.url));

export function bundledManifests(): Record<string, unknown> {
  const read = (name: string) => JSON.parse(fs.readFileSync(DIR + name, 'utf8'));
  const manifests: Record<string, unknown> = Object.fromEntries(WORLD_MANIFESTS.map((name) => [name, read(name)]));
  manifests.items = ITEM_FILES.flatMap((file) => read(file));
  return manifests;
}

export function bundledWorld(): ReturnType<typeof buildWorldData> {
  return buildWorldData(bundledManifests());
}
