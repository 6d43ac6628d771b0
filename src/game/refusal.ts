/**
 * The one refusal type below the edges: a stable upper-snake `code`, a message for people, and optional details.
 * Rules, stores and services throw it; each edge translates it once (rooms → `error` / `tradeError` event, http →
 * problem+json) with the shared code → status table. Throwing it from a message handler changes nothing.
 */
export class GameError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'GameError';
    this.code = code;
    this.details = details;
  }
}
