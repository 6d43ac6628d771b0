/**
 * Issue #35, item 8: `npm run test:one -- <file>` (README, "Useful commands") runs that one test file with the
 * suite's Node flags and options, not the whole suite (`npx mocha <file>` runs everything: .mocharc.json's `spec`
 * is added to the file given).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { PROJECT_ROOT, runCommand, type CommandResult } from './helpers/process.ts';


function npmTestOne(...args: string[]): Promise<CommandResult> {
  return runCommand('npm', ['run', '--silent', 'test:one', '--', ...args], { PATH: process.env.PATH, HOME: process.env.HOME }, 120_000);
}

describe('npm run test:one -- <file>', function () {
  this.timeout(150_000);

  it('runs every test of that file and no other', async () => {
    const file = 'test/nul-characters.test.ts';
    const run = await npmTestOne(file, '--reporter', 'json');
    assert.equal(run.code, 0, run.stderr + run.stdout.slice(-2000));
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { stats: { tests: number }; tests: Array<{ file: string }> };
    assert.ok(report.stats.tests > 0, 'it ran tests');
    assert.deepEqual([...new Set(report.tests.map((test) => path.relative(PROJECT_ROOT, test.file)))], [file]);
  });

  it('refuses to run without a file, or with one that does not exist, saying how to call it', async () => {
    for (const args of [[], ['test/no-such.test.ts']]) {
      const run = await npmTestOne(...args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, /usage: npm run test:one -- <file\.test\.ts>/);
    }
  });
});
