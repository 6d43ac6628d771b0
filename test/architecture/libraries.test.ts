/**
 * Libraries the server's code uses (issue #21 item 7): every package src/, rooms/ and schema/ import at run time is
 * a dependency of its own (not a devDependency that happens to be hoisted), and each job has one library — server
 * and voice tokens are signed and verified with `jsonwebtoken`; `jose` only reads the identity provider's key set
 * (src/auth/idp.ts), which `jsonwebtoken` cannot do.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { PROJECT_ROOT } from '../helpers/process.ts';
import { importGraph } from './import-graph.ts';

/** Run-time package imports (`import type` is erased, so it does not count). */
const PACKAGE_IMPORT = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'"`;]*?\s+from\s+)?['"]([^./'"][^'"]*)['"]|import\(\s*['"]([^./'"][^'"]*)['"]\s*\)/g;

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function code(file: string): string {
  return fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** package name → the files importing it at run time. */
export function packageImports(files: readonly string[], read: (file: string) => string = code): Map<string, string[]> {
  const builtins = new Set(builtinModules);
  const found = new Map<string, string[]>();
  for (const file of files) {
    for (const match of read(file).matchAll(PACKAGE_IMPORT)) {
      const specifier = match[1] ?? match[2];
      if (specifier.startsWith('node:') || builtins.has(specifier)) continue;
      const name = packageName(specifier);
      found.set(name, [...(found.get(name) ?? []), file]);
    }
  }
  return found;
}

/** devDependencies the server loads only in development, by a dynamic import with a fallback when absent. */
const DEVELOPMENT_ONLY = new Set(['@colyseus/playground']);

const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const { files } = importGraph(PROJECT_ROOT);
const imports = packageImports(files);

describe('architecture: the libraries the server uses', () => {
  it('finds the server\'s package imports', () => {
    for (const name of ['express', '@colyseus/core', 'ws', 'cors', 'proxy-addr', 'jsonwebtoken']) assert.ok(imports.has(name), name);
  });

  it('every package imported at run time is a dependency (not only a devDependency)', () => {
    const missing = [...imports].filter(([name]) => !(name in manifest.dependencies) && !DEVELOPMENT_ONLY.has(name)).map(([name, by]) => `${name} (${by.join(', ')})`);
    assert.deepEqual(missing, []);
  });

  it('jose only reads the identity provider\'s key set; every token the server signs goes through jsonwebtoken', () => {
    assert.deepEqual(imports.get('jose'), ['src/auth/idp.ts']);
  });

  it('the checker sees value imports and ignores type-only ones', () => {
    const sources: Record<string, string> = {
      'a.ts': "import { SignJWT } from 'jose';\nimport type { Request } from 'express';\nimport WebSocket from 'ws';",
      'b.ts': "const m = await import('@scope/pkg/sub');\nimport fs from 'node:fs';\nimport path from 'path';",
    };
    const found = packageImports(Object.keys(sources), (file) => sources[file]);
    assert.deepEqual([...found.keys()].sort(), ['@scope/pkg', 'jose', 'ws']);
  });
});
