import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const GAME_DIR = fileURLToPath(new URL('../../src/game/', import.meta.url));

describe('src/game stays pure', () => {
  it('imports only its own modules and manifest types/data, and reads no clock or randomness', async () => {
    for (const name of (await readdir(GAME_DIR)).filter((f) => f.endsWith('.ts'))) {
      const source = await readFile(GAME_DIR + name, 'utf8');
      for (const [, path] of source.matchAll(/\bfrom\s+'([^']+)'/g)) {
        assert.match(path, /^\.\/[\w-]+\.ts$|^\.\.\/manifests\/[\w/-]+\.ts$/, `${name} imports ${path}`);
      }
      assert.doesNotMatch(source, /\bDate\.now\(|\bnew Date\(|Math\.random\(|performance\.now\(|\bprocess\./, `${name} reads the clock, randomness or the process`);
    }
  });
});
