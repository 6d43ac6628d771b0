/**
 * RFC 9457 problem details. Every REST error is `application/problem+json` with a stable upper-snake `code`;
 * WebSocket errors carry the same codes. The http edge's translator of refusals: a GameError thrown below the edge
 * (rules, stores, services — AuthError included) becomes a problem with the status of the shared code → status
 * table (src/game/refusal.ts); nothing below the edge knows HTTP.
 */
import type { Response } from 'express';
import { GameError, refusalStatus } from '../game/refusal.ts';

/** The realm of the Bearer challenges (RFC 6750). */
export const AUTH_REALM = 'game';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * A problem response as the error handler sends it. Routes throw a GameError (problemOf gives its status); an
 * HttpProblem is thrown only for what the table cannot say, e.g. the monitor's 401 with a Basic challenge.
 */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    detail: string,
    extensions: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
    this.extensions = extensions;
    this.headers = headers;
  }
}

/**
 * A refusal as the problem the http edge answers: the table's status, the details as extension members, and the
 * headers its status calls for — the RFC 6750 challenge of an authentication (401) or authorization (403
 * INSUFFICIENT_ROLE / INSUFFICIENT_SCOPE) refusal, Retry-After of a 429.
 */
export function problemOf(error: GameError): HttpProblem {
  const status = refusalStatus(error.code);
  return new HttpProblem(status, error.code, error.message, { ...error.details }, refusalHeaders(error, status));
}

function refusalHeaders(error: GameError, status: number): Record<string, string> {
  if (status === 401) {
    return {
      'WWW-Authenticate': error.code === 'AUTH_REQUIRED'
        ? `Bearer realm="${AUTH_REALM}"`
        : `Bearer realm="${AUTH_REALM}", error="invalid_token"`,
    };
  }
  if (error.code === 'INSUFFICIENT_ROLE' || error.code === 'INSUFFICIENT_SCOPE') {
    return { 'WWW-Authenticate': `Bearer realm="${AUTH_REALM}", error="insufficient_scope"` };
  }
  const retry = retryAfterSeconds(error);
  if (status === 429) return { 'Retry-After': String(Math.max(1, Math.ceil(retry ?? 1))) };
  if (status === 503 && retry !== undefined) return { 'Retry-After': String(Math.max(1, Math.ceil(retry))) };
  return {};
}

/** Refusals worth retrying after a known while, whatever their details say. */
const RETRY_AFTER_SECONDS: Readonly<Record<string, number>> = {
  /** The AI-agent service did not answer: ask again shortly. */
  AGENT_SERVICE_UNAVAILABLE: 5,
};

/** Seconds until a refused request may succeed: AuthError's own field, a `retryAfterMs` detail, or the code's. */
function retryAfterSeconds(error: GameError): number | undefined {
  const own = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  if (typeof own === 'number') return own;
  const ms = error.details?.retryAfterMs;
  if (typeof ms === 'number') return ms / 1000;
  return Object.hasOwn(RETRY_AFTER_SECONDS, error.code) ? RETRY_AFTER_SECONDS[error.code] : undefined;
}

/** Where a problem's `type` points: the errors reference the server serves (routes/errors-doc.ts). */
export const ERRORS_DOC_PATH = '/docs/errors.md';

/** A code's fragment in a problem `type`: `NOT_FOUND` → `not-found`. */
export function errorAnchor(code: string): string {
  return code.toLowerCase().replaceAll('_', '-');
}

export function problemBody(status: number, code: string, detail: string, extensions: Record<string, unknown> = {}): ProblemBody {
  return {
    type: `${ERRORS_DOC_PATH}#${errorAnchor(code)}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...extensions,
  };
}

export function sendProblem(
  res: Response,
  status: number,
  code: string,
  detail: string,
  extensions: Record<string, unknown> = {},
): void {
  res.status(status).type('application/problem+json').send(JSON.stringify(problemBody(status, code, detail, extensions)));
}
