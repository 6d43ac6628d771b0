/**
 * The cross-origin policy: one allowlist function (`createOriginPolicy`) serves every edge.
 *
 * - Express routes: the `cors` middleware (`corsMiddleware`), which reflects an allowed Origin with credentials and
 *   answers its preflights; disallowed origins get no CORS headers.
 * - Colyseus' own HTTP routes (matchmaking): Colyseus answers their preflights and stamps their headers through
 *   `matchMaker.controller`, which by default reflects any Origin with credentials; `installOriginPolicy` makes it
 *   ask the same policy. Colyseus' listener would also answer every OPTIONS and stamp every Express response before
 *   Express runs: `routeAroundColyseus` keeps it for Colyseus' routes only.
 * - WebSocket upgrades: refused with 403 before the handshake from disallowed origins (`upgradeOriginAllowed` /
 *   `checkUpgradeOrigin`, used by the game transport); upgrades without an Origin are not browsers acting for
 *   another site and are allowed.
 *
 * Never `*`. The allowlist is documented in docs/auth.md.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { matchMaker } from '@colyseus/core';
import cors from 'cors';
import type { RequestHandler } from 'express';
import type { Config } from '../config.ts';

export const CORS_RESPONSE_HEADERS = {
  'Access-Control-Allow-Credentials': 'true',
  'Access-Control-Allow-Methods': 'GET, PUT, POST, DELETE, OPTIONS, PATCH',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Requested-With',
} as const;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** One or more DNS labels followed by a dot: the subdomain part of a preview or frame origin. */
const SUBDOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+$/;

export type OriginPolicy = (origin: string) => boolean;

/** The fixed origins (without patterns) the configuration allows. */
export function allowedExactOrigins(config: Config): Set<string> {
  const exact = new Set<string>();
  for (const origin of config.corsFrontendOrigins) {
    const url = new URL(origin);
    exact.add(url.origin);
    const host = url.hostname.startsWith('www.') ? url.hostname.slice(4) : `www.${url.hostname}`;
    exact.add(`${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`);
  }
  exact.add(`https://${config.corsStaticHost}`);
  exact.add(`http://${config.corsStaticHost}`); // the http fallback for testing
  exact.add(new URL(config.corsServerOrigin).origin);
  for (const url of [config.clientUrl, config.publicAppUrl, config.agentUrl, config.agentApiUrl]) {
    if (url !== undefined) exact.add(new URL(url).origin);
  }
  return exact;
}

function isSubdomainOf(hostname: string, parent: string): boolean {
  return hostname.endsWith(`.${parent}`) && SUBDOMAIN.test(hostname.slice(0, hostname.length - parent.length));
}

export function createOriginPolicy(config: Config): OriginPolicy {
  const exact = allowedExactOrigins(config);
  return (origin) => {
    if (typeof origin !== 'string' || origin.length > 300) return false;
    if (exact.has(origin)) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // "null" and other opaque origins
    }
    // Only the canonical serialization (what browsers send) may match a pattern: no path, credentials or case games.
    if (url.origin !== origin) return false;
    const https = url.protocol === 'https:';
    const http = url.protocol === 'http:';
    if (!https && !http) return false;
    if (LOCAL_HOSTS.has(url.hostname)) return true;
    if (url.port !== '') return false;
    const host = url.hostname;
    if (isSubdomainOf(host, config.corsStaticHost)) return true; // frontend previews, http or https
    if (!https) return false;
    return isSubdomainOf(host, config.corsServerPreviewHost)
      || isSubdomainOf(host, config.corsIdpHost)
      || config.corsSocialHosts.some((social) => isSubdomainOf(host, social));
  };
}

export function corsHeadersFor(policy: OriginPolicy, origin: string | null | undefined): Record<string, string> {
  if (!origin || !policy(origin)) return { Vary: 'Origin' };
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', ...CORS_RESPONSE_HEADERS };
}

/**
 * The `cors` middleware for the Express routes, on the same policy: an allowed Origin is reflected with credentials
 * and the spec's methods and headers (on preflights, which it answers 204, and on responses alike); any other
 * Origin, or none, gets no CORS header. Responses always vary by Origin.
 */
export function corsMiddleware(policy: OriginPolicy): RequestHandler {
  const allowOrigin = cors({
    origin: (origin, done) => done(null, origin !== undefined && policy(origin) ? origin : false),
    credentials: true,
    methods: CORS_RESPONSE_HEADERS['Access-Control-Allow-Methods'],
    allowedHeaders: CORS_RESPONSE_HEADERS['Access-Control-Allow-Headers'],
    optionsSuccessStatus: 204,
  });
  return (req, res, next) => {
    res.vary('Origin');
    allowOrigin(req, res, (error?: unknown) => {
      if (error) return next(error);
      // The spec's headers on every allowed response, not only on preflights (where `cors` puts methods and headers).
      if (res.getHeader('Access-Control-Allow-Origin') !== undefined) res.set(CORS_RESPONSE_HEADERS);
      next();
    });
  };
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Colyseus (with Express) prepends one 'request' listener that answers every OPTIONS with its CORS headers and
 * stamps them on every response before handing non-Colyseus paths to Express. Call once Colyseus is listening:
 * its listener then serves only `isColyseusRoute` requests (matchmaking, whose CORS comes from the controller hook
 * above), and every other request goes straight to the Express app, where `corsMiddleware` decides.
 */
export function routeAroundColyseus(server: HttpServer, app: RequestListener, isColyseusRoute: (method: string, path: string) => boolean): void {
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`expected Colyseus' one request listener, found ${listeners.length}`);
  const colyseus = listeners[0];
  server.removeListener('request', colyseus);
  server.prependListener('request', (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (isColyseusRoute(req.method ?? 'GET', path)) colyseus.call(server, req, res);
    else app(req, res);
  });
}

/** Matchmaking methods clients may call over HTTP: no `create`, so clients cannot open arbitrary rooms. */
export const EXPOSED_MATCHMAKE_METHODS = ['joinOrCreate', 'join', 'joinById', 'reconnect'];

let installed: OriginPolicy | undefined;

/** Installs the policy into Colyseus and trims the matchmaker. */
export function installOriginPolicy(policy: OriginPolicy): void {
  installed = policy;
  const controller = matchMaker.controller;
  controller.DEFAULT_CORS_HEADERS = {} as typeof controller.DEFAULT_CORS_HEADERS;
  controller.getCorsHeaders = (headers: Headers) => corsHeadersFor(policy, headers.get('origin'));
  // Refused with 403 FORBIDDEN by the one replacement of `invokeMethod` (matchmaker-errors.ts).
  controller.exposedMethods = EXPOSED_MATCHMAKE_METHODS;
}

/** Whether a WebSocket upgrade may proceed: no Origin (not a browser), or an allowed one. */
export function upgradeOriginAllowed(origin: string | null | undefined, policy: OriginPolicy): boolean {
  return origin === undefined || origin === null || policy(origin);
}

/**
 * For an 'upgrade' listener of your own: whether the request's Origin is allowed by `policy` (default: the policy
 * installed by installOriginPolicy). Refuse with 403 when false.
 */
export function checkUpgradeOrigin(req: IncomingMessage, policy: OriginPolicy | undefined = installed): boolean {
  if (!policy) throw new Error('no origin policy installed');
  const header = req.headers.origin;
  return upgradeOriginAllowed(Array.isArray(header) ? header[0] : header, policy);
}
