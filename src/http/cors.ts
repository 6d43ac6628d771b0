/**
 * The cross-origin policy. Colyseus answers every preflight and stamps CORS headers on every response of its
 * HTTP server (Express routes included) through `matchMaker.controller`; by default it reflects any Origin with
 * credentials. This module replaces that with the project's allowlist: disallowed origins get no CORS headers.
 */
import { matchMaker, ServerError } from '@colyseus/core';
import type { Config } from '../config.ts';

export const CORS_RESPONSE_HEADERS = {
  'Access-Control-Allow-Credentials': 'true',
  'Access-Control-Allow-Methods': 'GET, PUT, POST, DELETE, OPTIONS, PATCH',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Requested-With',
} as const;

const LOCALHOST = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

export type OriginPolicy = (origin: string) => boolean;

export function createOriginPolicy(config: Config): OriginPolicy {
  const exact = new Set(
    [config.publicAppUrl, config.clientUrl, config.agentUrl, config.agentApiUrl]
      .filter((url): url is string => url !== undefined)
      .map((url) => new URL(url).origin),
  );
  return (origin) => exact.has(origin) || LOCALHOST.test(origin);
}

export function corsHeadersFor(policy: OriginPolicy, origin: string | null | undefined): Record<string, string> {
  if (!origin || !policy(origin)) return {};
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', ...CORS_RESPONSE_HEADERS };
}

/** Matchmaking methods clients may call over HTTP: no `create`, so clients cannot open arbitrary rooms. */
export const EXPOSED_MATCHMAKE_METHODS = ['joinOrCreate', 'join', 'joinById', 'reconnect'];

/** Installs the policy into Colyseus and trims the matchmaker. */
export function installOriginPolicy(policy: OriginPolicy): void {
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
