/**
 * The rooms' translation of a refusal that ends a join (the class is src/game/refusal.ts): Colyseus carries a
 * `ServerError` — a number and a message — to the matchmaking route, the SDK's socket or the /ws adapter, so a
 * refused join is a JoinRefusal: the status of the shared code → status table, the message "CODE: message" the
 * SDK shows, and the code and message as fields, which is what the /ws adapter reads back (`codedError`).
 */
import { ServerError } from '@colyseus/core';
import { GameError, refusalStatus } from '../src/game/refusal.ts';

export class JoinRefusal extends ServerError {
  /** The stable upper-snake code (ServerError's own `code` is the status Colyseus carries). */
  readonly refusalCode: string;
  /** The message for people, without the code. */
  readonly detail: string;
  /** The refusal's details (e.g. `retryAfterSeconds`), passed on to /ws clients. */
  readonly details: Record<string, unknown> | undefined;

  /** `status`: the table's, unless the room answers a code with its own (a trade room refuses every join with 403). */
  constructor(code: string, message: string, status: number = refusalStatus(code), details?: Record<string, unknown>) {
    super(status, `${code}: ${message}`);
    this.name = 'JoinRefusal';
    this.refusalCode = code;
    this.detail = message;
    this.details = details;
  }
}

/** A join refusal as Colyseus expects it, with the status of the code. */
export function joinRefusal(code: string, message: string, details?: Record<string, unknown>): JoinRefusal {
  return new JoinRefusal(code, message, refusalStatus(code), details);
}

/**
 * For a room hook that lets the socket's own verification refuse (AuthError, or any GameError): rethrows a refusal
 * as a JoinRefusal, anything else unchanged. Use as `.catch(refuseJoin)`.
 */
export function refuseJoin(error: unknown): never {
  if (error instanceof GameError) throw joinRefusal(error.code, error.message, error.details);
  throw error;
}

/** Reads the stable code back out of anything a join or handler threw: a field, never the message text. */
export function codedError(error: unknown): { code: string; message: string; details?: Record<string, unknown> } {
  if (error instanceof GameError) return { code: error.code, message: error.message, details: error.details };
  if (error instanceof JoinRefusal) return { code: error.refusalCode, message: error.detail, details: error.details };
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return { code, message };
  return { code: 'JOIN_FAILED', message };
}
