/**
 * The REST limit: RATE_LIMIT_REST_PER_MINUTE (100) requests per minute per client address, then 429 with
 * Retry-After and the address blocked for RATE_LIMIT_BLOCK_SECONDS (60). Every limited response carries
 * RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds). Health probes are never limited, and neither
 * are GET/HEAD requests outside the API (the frontend's static files).
 */
import type { Request, RequestHandler } from 'express';
import { sendProblem } from './problem.ts';
import { requestAddress } from '../limits/client-address.ts';
import type { Limiter } from '../limits/store.ts';

const PROBES = new Set(['/health', '/status']);
const LIMITED_READS = /^\/(api|manifests)(\/|$)|^\/env\.js$/;

/** Whether a request counts against the REST limit. */
export function isRestLimited(req: Pick<Request, 'method' | 'path'>): boolean {
  const path = req.path.toLowerCase().replace(/\/{2,}/g, '/');
  if (PROBES.has(path) || PROBES.has(path.replace(/\/$/, ''))) return false;
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return LIMITED_READS.test(path);
  return true;
}

/** `alreadyCounted`: requests another server process forwarded after counting them (scale-out). */
export function restRateLimit(limiter: Limiter, alreadyCounted: (req: Request) => boolean = () => false): RequestHandler {
  return async (req, res, next) => {
    if (!isRestLimited(req) || alreadyCounted(req)) return next();
    const decision = await limiter.consume(requestAddress(req));
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    res.set({
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(resetSeconds),
    });
    if (decision.allowed) return next();
    res.set('Retry-After', String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))));
    sendProblem(res, 429, 'RATE_LIMITED', `Too many requests: at most ${decision.limit} per minute from one address`);
  };
}
