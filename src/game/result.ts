/**
 * The result convention of every game rule that can refuse: a refusal carries a stable upper-snake `code`
 * (documented in docs/game-rules.md) and a human-readable `message`, and changes nothing.
 */
export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

export interface Refusal<C extends string> {
  readonly ok: false;
  readonly code: C;
  readonly message: string;
}

export type Result<T, C extends string> = Ok<T> | Refusal<C>;

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

export function refuse<C extends string>(code: C, message: string): Refusal<C> {
  return { ok: false, code, message };
}
