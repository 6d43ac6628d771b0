/** The README cannot drift from the code: its docker run line starts a production server, its links resolve. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { withConfigTable } from '../src/config/docs.ts';
import { PROJECT_ROOT } from './helpers/process.ts';

const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
const dockerfile = fs.readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8');

describe('README', () => {
  it('its docker run line sets every variable production needs (with the Dockerfile\'s own environment)', () => {
    const command = /docker run [^`]*?\sgame-server(?=[`\n])/.exec(readme)?.[0];
    assert.ok(command, 'a docker run command in the README');
    const env: Record<string, string> = {};
    for (const [, name, value] of command.matchAll(/-e ([A-Z_]+)=(\S+)/g)) env[name] = value;
    for (const [, name, value] of dockerfile.matchAll(/^\s*(?:ENV )?(NODE_ENV|PORT|WORLD)=(\S+?)(?: \\)?$/gm)) env[name] ??= value;
    assert.equal(env.NODE_ENV, 'production', 'the image runs in production');
    const { config, warnings } = loadConfig(env, '/app'); // throws, listing the problems, when the line falls short
    assert.equal(config.isProduction, true);
    assert.deepEqual(warnings, []);
  });

  it('its configuration table is the one generated from src/config/variables.ts', () => {
    assert.ok(readme === withConfigTable(readme), 'README.md\'s configuration table differs from the declarations in src/config/variables.ts: run npm run docs:config');
  });

  it('links only to files that exist in the repository', () => {
    const links = [...readme.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map(([, target]) => target).filter((target) => !/^[a-z]+:/.test(target));
    assert.ok(links.includes('docs/game-server-interface.md'), 'the interface contract is linked inside the repository');
    for (const target of links) assert.ok(fs.existsSync(path.join(PROJECT_ROOT, target)), target);
    assert.ok(!readme.includes('../shared/'), 'no path outside the repository');
  });
});
