/**
 * GET /metrics in the Prometheus text format. Protected: a bearer token equal to METRICS_TOKEN (for a scraper),
 * or a server token with the admin role.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { AuthError } from '../../auth/errors.ts';
import { bearerToken } from '../../auth/middleware.ts';
import type { AuthService } from '../../auth/service.ts';
import type { GameMetrics } from '../../observability/metrics.ts';

function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function createMetricsRouter(metrics: GameMetrics, auth: AuthService, metricsToken: string | undefined): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    const token = bearerToken(req.get('authorization'));
    if (token === undefined) throw new AuthError('AUTH_REQUIRED', 'GET /metrics needs Authorization: Bearer <token>');
    const scraper = metricsToken !== undefined && sameSecret(token, metricsToken);
    if (!scraper) {
      const identity = auth.tokens.verify(token);
      if (!identity.roles.includes('admin')) throw new AuthError('INSUFFICIENT_ROLE', 'GET /metrics needs the admin role');
    }
    res.set('Cache-Control', 'no-store').type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
