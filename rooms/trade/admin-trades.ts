/**
 * GET /api/admin/trades?characterId=&limit= (admin role only): the trade audit rows, newest first — every
 * completed or cancelled trade (and declined or expired request) with both sides' items, reason and times.
 */
import { Router } from 'express';
import { requireRole } from '../../src/auth/index.ts';
import type { Database } from '../../src/db/database.ts';
import { HttpProblem } from '../../src/http/problem.ts';

interface AuditRow {
  id: string;
  initiator_id: string;
  partner_id: string;
  status: string;
  reason: string | null;
  initiator_items: unknown;
  partner_items: unknown;
  started_at: Date | string;
  ended_at: Date | string;
}

const parseJson = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
const iso = (value: Date | string) => new Date(value).toISOString();

export function createAdminTradesRouter(db: Database): Router {
  const router = Router();
  router.get('/api/admin/trades', requireRole('admin'), async (req, res) => {
    const characterId = req.query.characterId;
    if (characterId !== undefined && (typeof characterId !== 'string' || characterId.length === 0 || characterId.length > 64)) {
      throw new HttpProblem(400, 'INVALID_REQUEST', 'characterId must be one character id');
    }
    const rawLimit = req.query.limit ?? '100';
    const limit = typeof rawLimit === 'string' && /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= 1000)) throw new HttpProblem(400, 'INVALID_REQUEST', 'limit must be a whole number from 1 to 1000');
    const em = db.em.fork();
    const rows = characterId === undefined
      ? await em.execute<AuditRow[]>('select * from trade_audit order by ended_at desc, id limit ?', [limit])
      : await em.execute<AuditRow[]>('select * from trade_audit where initiator_id = ? or partner_id = ? order by ended_at desc, id limit ?', [characterId, characterId, limit]);
    res.json({
      trades: rows.map((row) => ({
        id: row.id, initiatorId: row.initiator_id, partnerId: row.partner_id, status: row.status, reason: row.reason,
        initiatorItems: parseJson(row.initiator_items), partnerItems: parseJson(row.partner_items),
        startedAt: iso(row.started_at), endedAt: iso(row.ended_at),
      })),
    });
  });
  return router;
}
