import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic, type AtomicWriteFs } from '../../src/manifests/atomic-write.ts';
import { listFiles, makeTempDir, removeTempDirs } from './support/temp-dir.ts';

describe('writeFileAtomic', () => {
  let dir: string;
  let target: string;

  beforeEach(async () => {
    dir = await makeTempDir('atomic-');
    target = join(dir, 'npcs.json');
    await fs.writeFile(target, 'old content');
  });

  afterEach(removeTempDirs);

  it('replaces the file and leaves no temporary file behind', async () => {
    await writeFileAtomic(target, 'new content');
    assert.equal(await fs.readFile(target, 'utf8'), 'new content');
    assert.deepEqual(await listFiles(dir), ['npcs.json']);
  });

  it('creates missing folders', async () => {
    await writeFileAtomic(join(dir, 'recipes', 'cooking.json'), '[]');
    assert.deepEqual(await listFiles(dir), ['npcs.json', 'recipes/cooking.json']);
  });

  it('writes to a temporary file in the same folder and renames it over the target', async () => {
    const calls: string[] = [];
    const io: AtomicWriteFs = {
      mkdir: fs.mkdir,
      writeFile: async (path, data) => {
        calls.push(`write ${path}`);
        assert.equal(await fs.readFile(target, 'utf8'), 'old content', 'the target is untouched while writing');
        await fs.writeFile(path, data);
      },
      rename: async (from, to) => {
        calls.push(`rename ${from} -> ${to}`);
        await fs.rename(from, to);
      },
      rm: fs.rm,
    };
    await writeFileAtomic(target, 'new content', io);
    assert.equal(calls.length, 2);
    const temp = calls[0].slice('write '.length);
    assert.notEqual(temp, target);
    assert.equal(join(temp, '..'), dir);
    assert.equal(calls[1], `rename ${temp} -> ${target}`);
  });

  it('leaves the old file intact and removes the temporary file when the write fails midway', async () => {
    const io: AtomicWriteFs = {
      mkdir: fs.mkdir,
      writeFile: async (path) => {
        await fs.writeFile(path, 'half of the new con');
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
      rename: fs.rename,
      rm: fs.rm,
    };
    await assert.rejects(writeFileAtomic(target, 'new content', io), /ENOSPC/);
    assert.equal(await fs.readFile(target, 'utf8'), 'old content');
    assert.deepEqual(await listFiles(dir), ['npcs.json']);
  });

  it('leaves the old file intact and removes the temporary file when the rename fails', async () => {
    const io: AtomicWriteFs = {
      mkdir: fs.mkdir,
      writeFile: fs.writeFile,
      rename: async () => {
        throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
      },
      rm: fs.rm,
    };
    await assert.rejects(writeFileAtomic(target, 'new content', io), /EXDEV/);
    assert.equal(await fs.readFile(target, 'utf8'), 'old content');
    assert.deepEqual(await listFiles(dir), ['npcs.json']);
  });
});
