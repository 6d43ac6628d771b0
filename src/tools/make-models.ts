/**
 * Writes the bundled station models (world/assets/models/*.glb). Run: `npm exec -- node src/tools/make-models.ts [dir]`.
 * The output is deterministic, so re-running it leaves the committed files byte-identical.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { boxModelToGlb, type BoxModel } from './box-models.ts';
import { STATION_MODELS } from './station-models.ts';

export async function writeModels(dir: string, models: readonly BoxModel[] = STATION_MODELS): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const model of models) {
    const file = join(dir, `${model.id}.glb`);
    await writeFile(file, await boxModelToGlb(model));
    written.push(file);
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = resolve(process.argv[2] ?? join(process.env.WORLD ?? 'world', 'assets', 'models'));
  const files = await writeModels(dir);
  console.log(`wrote ${files.length} models to ${dir}`);
}
