import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WORLD_ASSETS = fileURLToPath(new URL('../../../world/assets/', import.meta.url));
export const BUNDLED_MANIFESTS = join(WORLD_ASSETS, 'manifests');

const created: string[] = [];

export async function makeTempDir(prefix = 'manifests-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Copies the bundled manifests into `dir` (which is created). */
export async function copyBundledManifests(dir: string): Promise<void> {
  await cp(BUNDLED_MANIFESTS, dir, { recursive: true, filter: (src) => !src.split(/[\\/]/).pop()!.startsWith('.') });
}

/** Relative path → mtimeMs of every file under `dir` (dot-files included). */
export async function mtimes(dir: string): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    result.set(relative(dir, full).split('\\').join('/'), (await stat(full)).mtimeMs);
  }
  return result;
}

/** Every file under `dir`, relative, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  return [...(await mtimes(dir)).keys()].sort();
}

/** Waits long enough that a rewrite would get a different mtime. */
export function pauseForMtime(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 30));
}
