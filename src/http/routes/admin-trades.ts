/**
 * GET /api/admin/trades?characterId=&limit= (admin role only): the trade audit rows, newest first — every
 * completed or cancelled trade (and declined or expired request) with both sides' items, reason and times.
 */
import { Router } from 'express';
import { requireRole } from '../../auth/index.ts';
import type { Database } from '../../db/database.ts';
import { listTradeAudit } from '../../db/trade-audit.ts';
import { GameError } from '../../game/refusal.ts';

export function createAdminTradesRouter(db: Database): Router {
  const router = Router();
  router.get('/api/admin/trades', requireRole('admin'), async (req, res) => {
    const characterId = req.query.characterId;
    if (characterId !== undefined && (typeof characterId !== 'string' || characterId.length === 0 || characterId.length > 64)) {
      throw new GameError('INVALID_REQUEST', 'characterId must be one character id');
    }
    const rawLimit = req.query.limit ?? '100';
    const limit = typeof rawLimit === 'string' && /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= 1000)) throw new GameError('INVALID_REQUEST', 'limit must be a whole number from 1 to 1000');
    res.json({ trades: await listTradeAudit(db, { characterId, limit }) });
  });
  return router;
}
