import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { MANIFEST_PATHS } from './manifest-registry.ts';

/** Sidecar in the cache directory: manifest path → the asset host's ETag for the cached copy. */
export const ETAGS_FILE = '.etags.json';

/** Reads every known manifest present in `dir` (unknown files are ignored). */
export async function readManifestDir(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  await Promise.all(
    MANIFEST_PATHS.map(async (path) => {
      const body = await readIfExists(join(dir, path));
      if (body !== null) files.set(path, body);
    }),
  );
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export async function readEtags(dir: string): Promise<Record<string, string>> {
  const body = await readIfExists(join(dir, ETAGS_FILE));
  if (body === null) return {};
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {}; // a damaged sidecar only costs a full download
  }
}

export async function writeEtags(dir: string, etags: Record<string, string>): Promise<void> {
  const sorted = Object.fromEntries(Object.entries(etags).sort(([a], [b]) => (a < b ? -1 : 1)));
  await writeFileAtomic(join(dir, ETAGS_FILE), `${JSON.stringify(sorted, null, 2)}\n`);
}

/** Writes one manifest into the cache atomically. */
export async function writeCachedManifest(dir: string, path: string, body: Buffer): Promise<void> {
  await writeFileAtomic(join(dir, path), body);
}

async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}
