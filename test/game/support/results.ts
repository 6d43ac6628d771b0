import assert from 'node:assert/strict';
import type { Result } from '../../../src/game/result.ts';

/** The value of an ok result; fails the test with the refusal otherwise. */
export function expectOk<T, C extends string>(result: Result<T, C>): T {
  if (!result.ok) assert.fail(`expected ok, got ${result.code}: ${result.message}`);
  return result.value;
}

/** Asserts a refusal with the given code. */
export function expectCode<T, C extends string>(result: Result<T, C>, code: C): void {
  if (result.ok) assert.fail(`expected ${code}, got ok`);
  assert.equal(result.code, code, result.message);
}
