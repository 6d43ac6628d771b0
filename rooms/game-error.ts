/** Join refusals as Colyseus carries them, and reading a refusal's code back (the class is src/game/refusal.ts). */
import { ServerError } from '@colyseus/core';
import { GameError } from '../src/game/refusal.ts';

/** HTTP-like statuses for refusals that end a join; Colyseus carries a number, the message starts with the code. */
const JOIN_STATUS: Record<string, number> = {
  CHARACTER_NOT_OWNED: 403,
  CHARACTER_NOT_FOUND: 404,
  ALREADY_ONLINE: 409,
  NAME_TAKEN: 409,
  CHARACTER_LIMIT: 409,
  TEMPLATE_NOT_FOUND: 404,
  INVALID_NAME: 400,
  INVALID_REQUEST: 400,
  WORLD_UNAVAILABLE: 503,
  RATE_LIMITED: 429,
};

/** A join refusal as Colyseus expects it: `ServerError(status, "CODE: message")`. */
export function joinRefusal(code: string, message: string): ServerError {
  return new ServerError(JOIN_STATUS[code] ?? 400, `${code}: ${message}`);
}

/** Reads the stable code back out of anything a join or handler threw. */
export function codedError(error: unknown): { code: string; message: string } {
  if (error instanceof GameError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const coded = /^([A-Z][A-Z0-9_]+): (.*)$/s.exec(message);
  if (coded) return { code: coded[1], message: coded[2] };
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return { code, message };
  return { code: 'JOIN_FAILED', message };
}
