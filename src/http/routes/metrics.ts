/**
 * GET /metrics in the Prometheus text format. Protected: a bearer token equal to METRICS_TOKEN (for a scraper,
 * compared in constant time), or a server token whose account holds the admin role now. Each failed
 * authentication is an authentication attempt of the client address (RATE_LIMIT_AUTH_PER_MINUTE); while the address
 * is blocked every request answers 429 AUTH_RATE_LIMITED without looking at the token, so the token cannot be
 * guessed. A successful scrape counts nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { AuthError } from '../../auth/errors.ts';
import { bearerToken } from '../../auth/middleware.ts';
import type { AuthService } from '../../auth/service.ts';
import type { GameMetrics } from '../../observability/metrics.ts';
import { requestAddress } from '../../limits/client-address.ts';

function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function createMetricsRouter(metrics: GameMetrics, auth: AuthService, metricsToken: string | undefined): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    await auth.attempts.countFailure({ address: requestAddress(req) }, async () => {
      const token = bearerToken(req.get('authorization'));
      if (token === undefined) throw new AuthError('AUTH_REQUIRED', 'GET /metrics needs Authorization: Bearer <token>');
      if (metricsToken !== undefined && sameSecret(token, metricsToken)) return;
      const roles = await auth.sessions.currentRoles(auth.tokens.verify(token));
      if (!roles.includes('admin')) throw new AuthError('INSUFFICIENT_ROLE', 'GET /metrics needs the admin role');
    });
    res.set('Cache-Control', 'no-store').type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
