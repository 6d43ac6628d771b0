/**
 * The cross-origin policy. Colyseus answers every preflight and stamps CORS headers on every response of its
 * HTTP server (Express routes included) through `matchMaker.controller`; by default it reflects any Origin with
 * credentials. This module replaces that with the project's allowlist: disallowed origins get no CORS headers.
 * The same policy refuses WebSocket upgrades from disallowed origins with 403 before the handshake
 * (`upgradeOriginAllowed` / `checkUpgradeOrigin`, used by the game transport); upgrades without an Origin are not
 * browsers acting for another site and are allowed. Never `*`. The allowlist is documented in docs/auth.md.
 */
import type { IncomingMessage } from 'node:http';
import { matchMaker, ServerError } from '@colyseus/core';
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

/** Matchmaking methods clients may call over HTTP: no `create`, so clients cannot open arbitrary rooms. */
export const EXPOSED_MATCHMAKE_METHODS = ['joinOrCreate', 'join', 'joinById', 'reconnect'];

let installed: OriginPolicy | undefined;

/** Installs the policy into Colyseus and trims the matchmaker. */
export function installOriginPolicy(policy: OriginPolicy): void {
  installed = policy;
  const controller = matchMaker.controller;
  controller.DEFAULT_CORS_HEADERS = {} as typeof controller.DEFAULT_CORS_HEADERS;
  controller.getCorsHeaders = (headers: Headers) => corsHeadersFor(policy, headers.get('origin'));
  controller.exposedMethods = EXPOSED_MATCHMAKE_METHODS;
  const invoke = controller.invokeMethod;
  // Colyseus answers an unexposed method with a 5xx; a client asking for one is a client fault.
  controller.invokeMethod = function (method, ...rest) {
    if (!EXPOSED_MATCHMAKE_METHODS.includes(method)) {
      return Promise.reject(new ServerError(403, `matchmaking method "${method}" is not allowed`));
    }
    return invoke.call(this, method, ...rest);
  };
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
