/**
 * The Express app on the Colyseus port (step 4): parsers with limits, the route families, then 404 and errors.
 * Cross-origin headers for every response are set by the origin policy hooked into Colyseus (see cors.ts).
 */
import express, { type Express, type Router } from 'express';
import type { Logger } from '../logger.ts';
import { errorHandler, notFound } from './errors.ts';
import { rejectNulCharacters } from './input-guard.ts';

export const JSON_BODY_LIMIT = '100kb';

export interface HttpAppOptions {
  logger: Logger;
  /** Route families, mounted in order. */
  routers: Router[];
  /** Mounted after the routes and before the 404 handler (e.g. the frontend). */
  fallbacks?: express.RequestHandler[];
  /** Mounted before the body parser and the routes: security headers, rate limit, /api auth gate (security.ts). */
  guards?: express.RequestHandler[];
  /** Reverse-proxy hops whose X-Forwarded-For entries are believed (TRUST_PROXY); 0 or undefined: none. */
  trustProxy?: number;
}

export function configureHttpApp(app: Express, options: HttpAppOptions): Express {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((_req, res, next) => {
    res.set('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.set('trust proxy', options.trustProxy ? options.trustProxy : false);
  for (const guard of options.guards ?? []) app.use(guard);
  app.use(express.json({ limit: JSON_BODY_LIMIT }));
  app.use(rejectNulCharacters);
  for (const router of options.routers) app.use(router);
  for (const fallback of options.fallbacks ?? []) app.use(fallback);
  app.use(notFound);
  app.use(errorHandler(options.logger));
  return app;
}
