/**
 * Security headers that cannot break the API. Every response: no referrer leaks. API responses (/api, /health,
 * /status, /env.js, /manifests and error documents for unknown paths) additionally may not be framed or render
 * anything active (CSP `default-src 'none'; frame-ancestors 'none'`, X-Frame-Options DENY); a JSON or JavaScript
 * body read by fetch() or <script src> is unaffected by either. The frontend's files (served in production) are
 * left frameable: the game runs inside social-frame hosts. HSTS in production.
 */
import type { Request, RequestHandler } from 'express';
import { authGate } from '../auth/middleware.ts';
import type { AuthService } from '../auth/service.ts';
import type { Config } from '../config.ts';
import { relayedAddress } from '../cluster/ws-relay.ts';
import { restRateLimit } from './rest-limit.ts';

const API_PATH = /^\/(api|manifests)(\/|$)|^\/(health|status|env\.js)\/?$/i;

export function securityHeaders(options: { production: boolean }): RequestHandler {
  return (req, res, next) => {
    res.set('Referrer-Policy', 'no-referrer');
    if (options.production) res.set('Strict-Transport-Security', 'max-age=15552000; includeSubDomains');
    if (API_PATH.test(req.path) || !['GET', 'HEAD'].includes(req.method)) {
      res.set({
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
        'X-Frame-Options': 'DENY',
      });
    }
    next();
  };
}

/**
 * Everything that runs before the body parser and the routes, in order: security headers, the REST rate limit
 * (RATE_LIMIT_REST_PER_MINUTE per address, block RATE_LIMIT_BLOCK_SECONDS) and the /api authentication gate.
 */
export function edgeGuards(config: Config, auth: AuthService): RequestHandler[] {
  const rest = auth.limits.create({
    name: 'rest',
    points: config.rateLimitRestPerMinute,
    windowSeconds: 60,
    blockSeconds: config.rateLimitBlockSeconds,
  });
  const forwarded = (req: Request) => relayedAddress(req, config.jwtSecret) !== undefined;
  return [securityHeaders({ production: config.isProduction }), restRateLimit(rest, forwarded), authGate(auth)];
}
