/**
 * One structured log line per HTTP request (pino-http on the server's logger): request id, method, path, status,
 * duration. It listens on the HTTP server itself, ahead of Colyseus and Express, so matchmaking routes and CORS
 * preflights are logged too. The id is the caller's `X-Request-Id` when it looks like one, otherwise a new UUID,
 * and is sent back as `X-Request-Id`; Express handlers log through `req.log` to carry it.
 *
 * Nothing secret reaches a line: headers are never serialised (so no Authorization or Cookie), and query values are
 * kept only for a few known harmless parameters — any other value, such as `?token=`, is written as `[redacted]`.
 * Health, status and metrics probes log at debug, so probing does not flood the info log.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { pinoHttp, stdSerializers } from 'pino-http';
import type { Logger } from '../logger.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** An incoming id is adopted only when it is short and plain (no spaces, quotes or control characters). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Probes answered at debug level. */
const PROBE_PATHS = new Set(['/health', '/status', '/metrics']);
/** Query parameters whose values are logged; every other value is redacted. */
const LOGGED_QUERY_VALUES = new Set(['limit', 'offset', 'characterId', 'includeRevoked']);
const MAX_LOGGED_URL = 512;

/** The path and query of a request URL as logged: values of unknown parameters replaced by `[redacted]`. */
export function loggedUrl(rawUrl: string | undefined): string {
  const url = rawUrl ?? '';
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  if (mark < 0) return path.slice(0, MAX_LOGGED_URL);
  const query = url.slice(mark + 1).split('&').filter(Boolean).map((pair) => {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (eq < 0) return key;
    return LOGGED_QUERY_VALUES.has(key) ? pair : `${key}=[redacted]`;
  });
  return `${path}?${query.join('&')}`.slice(0, MAX_LOGGED_URL);
}

function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const mark = url.indexOf('?');
  return (mark < 0 ? url : url.slice(0, mark)).slice(0, MAX_LOGGED_URL);
}

function isProbe(req: IncomingMessage): boolean {
  return PROBE_PATHS.has(pathOf(req).toLowerCase().replace(/\/+$/, ''));
}

export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

type Request = IncomingMessage & { id?: unknown; originalUrl?: string; log?: Logger };

const serializeRequest = (req: Request) => ({ id: req.id, method: req.method, url: loggedUrl(req.originalUrl ?? req.url) });

/**
 * The request logger. pino-http builds two child loggers per request even when its line would be dropped, which
 * costs about a fifth of a small request's CPU; so a request whose success line is below the logger's level
 * takes a quiet path instead: the id is stamped all the same, `req.log` is made only if a handler asks for it, and
 * only a failure (status ≥ 500) is logged, at error, in the same shape.
 */
export function createRequestLogger(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  const full = pinoHttpLogger(logger);
  return (req, res) => {
    if (logger.isLevelEnabled(isProbe(req) ? 'debug' : 'info')) return full(req, res);
    quietRequest(logger, req as Request, res);
  };
}

function quietRequest(logger: Logger, req: Request, res: ServerResponse): void {
  const id = requestId(req, res);
  const started = Date.now();
  let child: Logger | undefined;
  req.id = id;
  Object.defineProperty(req, 'log', { configurable: true, get: () => (child ??= logger.child({ reqId: id })) });
  res.once('finish', () => {
    if (res.statusCode < 500) return;
    logger.error({ reqId: id, req: serializeRequest(req), res: { statusCode: res.statusCode }, durationMs: Date.now() - started },
      `${req.method} ${pathOf(req)} ${res.statusCode} failed`);
  });
}

function pinoHttpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    quietReqLogger: true,
    wrapSerializers: false,
    customAttributeKeys: { responseTime: 'durationMs' },
    serializers: {
      req: serializeRequest,
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      err: stdSerializers.err,
    },
    customLogLevel: (req, res, error) => {
      if (error || res.statusCode >= 500) return 'error';
      return isProbe(req) ? 'debug' : 'info';
    },
    customSuccessMessage: (req, res) => `${req.method} ${pathOf(req)} ${res.writableEnded ? res.statusCode : 'aborted'}`,
    customErrorMessage: (req, res) => `${req.method} ${pathOf(req)} ${res.statusCode} failed`,
  });
}

/**
 * Logs every request of `server`. Call it once the server listens: Colyseus prepends its own request listener
 * while it starts listening, and this one must run first to stamp the id before anyone answers.
 */
export function installRequestLog(server: HttpServer, logger: Logger): void {
  const log = createRequestLogger(logger);
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => log(req, res));
}
