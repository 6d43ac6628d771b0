/**
 * RFC 9457 problem details. Every REST error is `application/problem+json` with a stable upper-snake `code`;
 * WebSocket errors carry the same codes.
 */
import type { Response } from 'express';

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

/** Thrown by route handlers; the error handler turns it into a problem response. */
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

export function problemBody(status: number, code: string, detail: string, extensions: Record<string, unknown> = {}): ProblemBody {
  return {
    type: `/docs/errors.md#${code.toLowerCase().replaceAll('_', '-')}`,
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
