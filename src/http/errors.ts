/**
 * The last middlewares: unknown routes → 404, thrown errors → problem details (a client fault is never a 500); a
 * refusal (GameError) is translated once, by problemOf. A route whose database cannot be reached (refused, reset,
 * restarted: src/db/unreachable.ts) answers 503 SERVICE_UNAVAILABLE with Retry-After, not a 500.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger.ts';
import { isDatabaseUnreachable } from '../db/unreachable.ts';
import { GameError } from '../game/refusal.ts';
import { HttpProblem, problemOf, sendProblem } from './problem.ts';

export const notFound: RequestHandler = (req, res) => {
  sendProblem(res, 404, 'NOT_FOUND', `No route for ${req.method} ${req.path}`);
};

/** Errors raised by body-parser carry a `type` and a client status (the matchmaking bodies answer the same). */
export const BODY_PARSER_ERRORS: Record<string, [number, string, string]> = {
  'entity.parse.failed': [400, 'MALFORMED_JSON', 'The request body is not valid JSON'],
  'entity.too.large': [413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than the limit'],
  'encoding.unsupported': [415, 'UNSUPPORTED_ENCODING', 'The request body encoding is not supported'],
  'charset.unsupported': [415, 'UNSUPPORTED_CHARSET', 'The request body charset is not supported'],
  'request.aborted': [400, 'REQUEST_ABORTED', 'The request was aborted'],
};

/** A route that could not reach the database: retry in 5 s. */
const DATABASE_UNAVAILABLE = new HttpProblem(503, 'SERVICE_UNAVAILABLE', 'The server cannot reach its database right now; try again shortly', {}, { 'Retry-After': '5' });

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const unreachable = !(error instanceof GameError) && isDatabaseUnreachable(error);
    if (unreachable) ((req as { log?: Logger }).log ?? logger).warn({ err: error, method: req.method, path: req.path }, 'the database cannot be reached: request refused');
    const problem = error instanceof GameError ? problemOf(error) : unreachable ? DATABASE_UNAVAILABLE : error;
    if (problem instanceof HttpProblem) {
      res.set(problem.headers);
      return sendProblem(res, problem.status, problem.code, problem.message, problem.extensions);
    }
    const known = typeof error?.type === 'string' ? BODY_PARSER_ERRORS[error.type] : undefined;
    if (known) return sendProblem(res, known[0], known[1], known[2]);
    if (typeof error?.status === 'number' && error.status >= 400 && error.status < 500) {
      return sendProblem(res, error.status, 'BAD_REQUEST', 'The request could not be processed');
    }
    // req.log (the request log's child logger) carries the request id.
    ((req as { log?: Logger }).log ?? logger).error({ err: error, method: req.method, path: req.path }, 'unhandled error in HTTP route');
    sendProblem(res, 500, 'INTERNAL_ERROR', 'An unexpected error occurred');
  };
}
