import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The file-system calls an atomic write needs (injectable to simulate failures). */
export interface AtomicWriteFs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
}

/** Prefix of temporary files; they start with a dot so nothing serves or loads them. */
export const TEMP_FILE_PREFIX = '.tmp-';

/**
 * Writes `data` to `target` so that readers see either the old or the new content, never a partial file:
 * the data goes to a temporary file in the same directory, which is then renamed over the target.
 * On failure the temporary file is removed and the target is left as it was.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, io: AtomicWriteFs = fs): Promise<void> {
  const dir = dirname(target);
  await io.mkdir(dir, { recursive: true });
  const temp = join(dir, `${TEMP_FILE_PREFIX}${basename(target)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await io.writeFile(temp, data);
    await io.rename(temp, target);
  } catch (error) {
    await io.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
