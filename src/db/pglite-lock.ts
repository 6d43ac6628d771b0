/**
 * Guards an embedded PGlite data directory against a second opener: PGlite itself opens the same directory twice
 * without complaint, and two writers corrupt it.
 *
 * The guard is an OS-level lock (Linux open-file-description lock, `fcntl(F_OFD_SETLK)`; `flock` on macOS) on a
 * file inside the data directory, taken through `fs-native-extensions` (prebuilt binaries shipped in the npm
 * package, no build step). Unlike a pid written to a file, it
 *  - holds across pid namespaces: two containers on one volume, where each server is pid 1, still exclude each
 *    other (the kernel knows the lock's owner, not a number in a file);
 *  - holds across paths: the file lives in the directory itself, so a bind mount or symlink reaching the same
 *    directory under another name finds the same lock;
 *  - holds within one process: a second open of the same directory by the same server is refused too;
 *  - is released by the kernel when the owner exits, however it dies (`kill -9` included): no stale lock to
 *    detect, no timeout to wait.
 * The file is never deleted (deleting a locked file would let the next opener lock a fresh inode while the old
 * owner still holds the deleted one). Its text (pid, host, start time) only serves the refusal message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fsx from 'fs-native-extensions';

export const LOCK_FILE_NAME = 'server.lock';

export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError';
}

/** Locks `dataDir` (which must exist) for this process; the returned function releases the lock. */
export function acquireDirectoryLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, LOCK_FILE_NAME);
  const fd = fs.openSync(lockPath, 'a+');
  let locked: boolean;
  try {
    locked = fsx.tryLock(fd);
  } catch (error) {
    fs.closeSync(fd);
    throw new Error(`could not lock the embedded database at ${dataDir}: ${(error as Error).message}`);
  }
  if (!locked) {
    let holder = '';
    try {
      holder = fs.readFileSync(lockPath, 'utf8').trim();
    } catch {
      // only for the message
    }
    fs.closeSync(fd);
    throw new DatabaseInUseError(
      `the embedded database at ${dataDir} is in use by process ${holder || '(unknown)'}; ` +
        'stop the other server first (or give this one its own PGLITE_DATA_DIR)',
    );
  }
  fs.ftruncateSync(fd, 0);
  fs.writeSync(fd, `${process.pid} on ${os.hostname()} since ${new Date().toISOString()}\n`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      fsx.unlock(fd);
    } finally {
      fs.closeSync(fd);
    }
  };
}
