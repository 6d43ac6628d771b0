/**
 * Whether an error means the database could not be reached (refused, reset, cut, shut down, a pool that timed out
 * connecting) rather than that a statement failed. A world that cannot reach its database refuses what it cannot
 * commit with WORLD_UNAVAILABLE (docs/scaling.md) instead of an internal error.
 */
import { ConnectionException } from '@mikro-orm/core';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTCONN']);
/** PostgreSQL's connection-exception class (08) and an administrator's shutdown (57P01–57P03). */
const SQLSTATE = /^(08...|57P0[123])$/;
const MESSAGES = /connection terminated|connection is closed|connection ended|timeout exceeded when trying to connect|cannot use a pool after|connection error|socket hang up/i;

export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof ConnectionException) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (current instanceof Error && MESSAGES.test(current.message)) return true;
  }
  return false;
}
