/**
 * The embedded database's single-writer lock (issue #17 item 3): an OS lock on a file inside the data directory,
 * which neither a pid that another namespace also uses, nor another path to the same directory, can fool.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../src/db/database.ts';
import { User } from '../src/db/entities/index.ts';
import { acquireDirectoryLock } from '../src/db/pglite-lock.ts';
import { PROJECT_ROOT } from './helpers/process.ts';

/** Runs a child Node process that takes the lock on `dir`, says `locked`, and waits to be killed. */
function childHoldingLock(dir: string) {
  const script = `
    const { acquireDirectoryLock } = await import(${JSON.stringify(path.join(PROJECT_ROOT, 'src/db/pglite-lock.ts'))});
    try { acquireDirectoryLock(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000); }
    catch (error) { console.log('refused: ' + error.message); process.exit(3); }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const said = new Promise<string>((resolve) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.trim());
    });
    child.once('exit', () => resolve(output.trim()));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, said, exited };
}

describe('embedded database lock', function () {
  this.timeout(60_000);
  let root: string;
  let dataDir: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'game-lock-'));
    dataDir = path.join(root, 'pglite');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('refuses a second open while the first server is writing, even when both report the same pid (pid 1 in two containers)', async () => {
    const first = await openDatabase({ pgliteDataDir: dataDir });
    try {
      // The old pid-file lock read its own pid back from the file and took the lock over.
      await assert.rejects(openDatabase({ pgliteDataDir: dataDir }), /in use by process/);
      const em = first.em.fork();
      em.create(User, { id: randomUUID(), displayName: 'still mine' });
      await em.flush();
    } finally {
      await first.close();
    }
    const reopened = await openDatabase({ pgliteDataDir: dataDir });
    try {
      const [row] = await reopened.em.getConnection().execute(`select count(*)::int as n from users where display_name = 'still mine'`);
      assert.equal(row.n, 1, 'the first server’s record survived');
    } finally {
      await reopened.close();
    }
  });

  it('refuses the same directory reached through another path (a symlink, or a volume mounted elsewhere)', () => {
    fs.mkdirSync(dataDir);
    const other = path.join(root, 'mounted-elsewhere');
    fs.symlinkSync(dataDir, other);
    const release = acquireDirectoryLock(dataDir);
    try {
      assert.throws(() => acquireDirectoryLock(other), /in use by process/);
    } finally {
      release();
    }
    acquireDirectoryLock(other)();
  });

  it('refuses another process while held, and the kernel frees it the moment its holder is killed with SIGKILL', async () => {
    fs.mkdirSync(dataDir);
    const release = acquireDirectoryLock(dataDir);
    const refused = childHoldingLock(dataDir);
    assert.match(await refused.said, /^refused: .*in use by process \d+ on /);
    assert.equal(await refused.exited, 3);
    release();

    const holder = childHoldingLock(dataDir);
    assert.equal(await holder.said, 'locked');
    assert.throws(() => acquireDirectoryLock(dataDir), /in use by process/);
    holder.child.kill('SIGKILL');
    await holder.exited;
    acquireDirectoryLock(dataDir)();
  });
});
