/**
 * Guards an embedded PGlite data directory against a second process: PGlite itself opens the same directory
 * twice without complaint, which would corrupt it. A lock left by a killed process (its pid gone) is taken over.
 */
import fs from 'node:fs';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDirectoryLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new Error(`the embedded database at ${lockPath.replace(/\.lock$/, '')} is in use by process ${holder}`);
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`could not lock ${lockPath}`);
}
