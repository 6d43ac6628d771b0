/**
 * `npm run docs:config`: rewrites README.md's configuration table from the declarations of src/config/variables.ts
 * (between its `config:begin` and `config:end` markers). `npm run docs:config -- --check` only reports whether the
 * README is current (exit 1 when not); test/readme.test.ts makes the same check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_DOCS_FILE, withConfigTable } from '../config/docs.ts';

const file = path.resolve(import.meta.dirname, '../..', CONFIG_DOCS_FILE);
const current = fs.readFileSync(file, 'utf8');
const generated = withConfigTable(current);

if (generated === current) {
  console.log(`${CONFIG_DOCS_FILE}: configuration table is current`);
} else if (process.argv.includes('--check')) {
  console.error(`${CONFIG_DOCS_FILE}: configuration table is out of date; run npm run docs:config`);
  process.exitCode = 1;
} else {
  fs.writeFileSync(file, generated);
  console.log(`${CONFIG_DOCS_FILE}: configuration table rewritten from src/config/variables.ts`);
}
