import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { writeFileAtomic } from '../manifests/atomic-write.ts';
import type { ModelBoundsEntry, ModelBoundsFile } from '../manifests/schemas/stations.ts';
import { stationFootprint } from '../manifests/station-footprint.ts';

/** Bumped when the manifest format or the rounding changes, so the next build rewrites the manifest. */
const BOUNDS_FORMAT_VERSION = 1;
/** Coordinates are rounded to 0.1 mm, which removes float32 noise (0.30000001192 → 0.3). */
const COORDINATE_DECIMALS = 4;

type Vec3 = { x: number; y: number; z: number };

/** Union of the min/max of every POSITION accessor in a GLB (node transforms are not applied). */
export async function readPositionBounds(glb: Uint8Array, label = 'model'): Promise<{ min: Vec3; max: Vec3 }> {
  const doc = await new NodeIO().readBinary(glb);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const position = primitive.getAttribute('POSITION');
      if (!position) continue;
      const lo = position.getMin([]);
      const hi = position.getMax([]);
      for (let axis = 0; axis < 3; axis++) {
        min[axis] = Math.min(min[axis], lo[axis]);
        max[axis] = Math.max(max[axis], hi[axis]);
      }
    }
  }
  if (!Number.isFinite(min[0])) throw new Error(`${label} has no POSITION accessor`);
  return { min: toVec3(min), max: toVec3(max) };
}

/** The model-bounds.json entry of one model; footprint at scale 1.0 (see stationFootprint). */
export function modelBoundsEntry(id: string, bounds: { min: Vec3; max: Vec3 }, tileSize: number): ModelBoundsEntry {
  const dimensions = {
    x: round(bounds.max.x - bounds.min.x),
    y: round(bounds.max.y - bounds.min.y),
    z: round(bounds.max.z - bounds.min.z),
  };
  return {
    id,
    assetPath: `asset://models/${id}.glb`,
    bounds: { min: roundVec(bounds.min), max: roundVec(bounds.max) },
    dimensions,
    footprint: stationFootprint(dimensions, 1, tileSize),
  };
}

export interface BuildModelBoundsOptions {
  modelsDir: string;
  manifestPath: string;
  /** Sidecar holding the content hash of the models the manifest was built from. */
  hashPath: string;
  tileSize: number;
  now?: () => Date;
}

/**
 * Writes model-bounds.json from every *.glb in modelsDir, but only when the models (or tileSize) changed
 * since the last build or the manifest is missing. Without any model (e.g. a deployment whose models live on
 * the asset host only) it writes nothing. Returns whether it wrote.
 */
export async function buildModelBounds(
  options: BuildModelBoundsOptions,
): Promise<{ written: boolean; hash: string | null; models: number }> {
  const files = (await listModelFiles(options.modelsDir)).sort();
  if (files.length === 0) return { written: false, hash: null, models: 0 };
  const contents = await Promise.all(files.map((file) => readFile(join(options.modelsDir, file))));
  const hash = contentHash(files, contents, options.tileSize);
  if ((await readText(options.hashPath))?.trim() === hash && (await exists(options.manifestPath))) {
    return { written: false, hash, models: files.length };
  }
  const models: ModelBoundsEntry[] = [];
  for (const [index, file] of files.entries()) {
    const id = basename(file, '.glb');
    models.push(modelBoundsEntry(id, await readPositionBounds(contents[index], file), options.tileSize));
  }
  models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const manifest: ModelBoundsFile = {
    generatedAt: (options.now?.() ?? new Date()).toISOString(),
    tileSize: options.tileSize,
    models,
  };
  await writeFileAtomic(options.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFileAtomic(options.hashPath, `${hash}\n`);
  return { written: true, hash, models: files.length };
}

async function listModelFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith('.glb') && !name.startsWith('.'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function contentHash(files: readonly string[], contents: readonly Buffer[], tileSize: number): string {
  const hash = createHash('sha256').update(`model-bounds v${BOUNDS_FORMAT_VERSION} tileSize=${tileSize}\n`);
  files.forEach((file, i) => hash.update(`${file} ${createHash('sha256').update(contents[i]).digest('hex')}\n`));
  return hash.digest('hex');
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function round(value: number): number {
  const rounded = Number(value.toFixed(COORDINATE_DECIMALS));
  return Object.is(rounded, -0) ? 0 : rounded;
}

function roundVec(v: Vec3): Vec3 {
  return { x: round(v.x), y: round(v.y), z: round(v.z) };
}

function toVec3(values: number[]): Vec3 {
  return { x: values[0], y: values[1], z: values[2] };
}
