/**
 * `npm run test:one -- <file.test.ts> [<file.test.ts> …] [mocha options]`: runs only the test files given, with the
 * Node flags and options of the whole suite. Plain `npx mocha <file>` runs everything, because .mocharc.json's
 * `spec` is added to the files given; this runs mocha without that file and passes its other settings (Node
 * options, extension, timeout, exit) on the command line, read from .mocharc.json so the two cannot drift.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const USAGE = 'usage: npm run test:one -- <file.test.ts> [more files] [mocha options, e.g. --grep <text>]';

interface MochaConfig {
  extension?: string[];
  'node-option'?: string[];
  timeout?: number;
  exit?: boolean;
}

const args = process.argv.slice(2);
const files = args.filter((arg, i) => arg.endsWith('.ts') && !args[i - 1]?.startsWith('--'));
const missing = files.filter((file) => !fs.existsSync(path.resolve(ROOT, file)));
if (files.length === 0 || missing.length > 0) {
  process.stderr.write(`${missing.length > 0 ? `no such test file: ${missing.join(', ')}\n` : ''}${USAGE}\n`);
  process.exit(2);
}

const config = JSON.parse(fs.readFileSync(path.join(ROOT, '.mocharc.json'), 'utf8')) as MochaConfig;
const settings = [
  '--no-config',
  ...(config.extension ?? []).flatMap((extension) => ['--extension', extension]),
  ...(config['node-option'] ?? []).flatMap((option) => ['--node-option', option]),
  ...(config.timeout === undefined ? [] : ['--timeout', String(config.timeout)]),
  ...(config.exit ? ['--exit'] : []),
];
const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
const child = spawn(process.execPath, [mocha, ...settings, ...args], { cwd: ROOT, stdio: 'inherit' });
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
