/**
 * The `trade_audit` rows: one per finished trade (completed or cancelled, and every declined or expired request)
 * with both sides' offers. A completed trade's row is written by the swap's own statement (it exists exactly
 * when the items moved, see item-transaction.ts `alsoWrite`); a cancelled trade's row on its own. The admin
 * view reads them newest first.
 */
import type { AuditedOffer } from './entities/trade-audit.ts';
import type { Database } from './database.ts';
import type { SqlStatement } from './item-transaction.ts';
import { iso, millis, parseJson } from './row-values.ts';
import type { Offer } from '../game/trade.ts';

export interface TradeAuditRecord {
  id: string;
  initiatorId: string;
  partnerId: string;
  status: 'completed' | 'cancelled';
  reason: string | null;
  initiatorItems: Offer;
  partnerItems: Offer;
  startedAt: Date;
  endedAt?: Date;
}

/** A row as the admin view shows it. */
export interface TradeAuditEntry {
  id: string;
  initiatorId: string;
  partnerId: string;
  status: string;
  reason: string | null;
  initiatorItems: unknown;
  partnerItems: unknown;
  startedAt: string;
  endedAt: string;
}

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

export function auditedOffer(offer: Offer): AuditedOffer {
  return offer.map((entry) => ({
    itemId: entry.itemId,
    quantity: entry.quantity,
    inventorySlot: entry.inventorySlot,
    ...(entry.metadata ? { metadata: { ...entry.metadata } } : {}),
  }));
}

/** The audit row's insert, to run inside the swap's own write (a completed trade) or on its own (a cancellation). */
export function tradeAuditStatement(record: TradeAuditRecord): SqlStatement {
  return {
    sql: `insert into trade_audit (id, initiator_id, partner_id, status, reason, initiator_items, partner_items, started_at, ended_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    params: [
      record.id, record.initiatorId, record.partnerId, record.status, record.reason,
      JSON.stringify(auditedOffer(record.initiatorItems)), JSON.stringify(auditedOffer(record.partnerItems)),
      record.startedAt, record.endedAt ?? new Date(),
    ],
  };
}

/** Inserts the audit row of a trade that ended without a swap (on a fresh fork of the entity manager). */
export async function writeTradeAudit(db: Database, record: TradeAuditRecord): Promise<void> {
  const { sql, params } = tradeAuditStatement(record);
  await db.em.fork().execute(sql, params);
}

/** The newest `limit` rows, of one character's trades (either side) when `characterId` is given. */
export async function listTradeAudit(db: Database, query: { characterId?: string; limit: number }): Promise<TradeAuditEntry[]> {
  const em = db.em.fork();
  const rows = query.characterId === undefined
    ? await em.execute<AuditRow[]>('select * from trade_audit order by ended_at desc, id limit ?', [query.limit])
    : await em.execute<AuditRow[]>('select * from trade_audit where initiator_id = ? or partner_id = ? order by ended_at desc, id limit ?', [query.characterId, query.characterId, query.limit]);
  return rows.map((row) => ({
    id: row.id, initiatorId: row.initiator_id, partnerId: row.partner_id, status: row.status, reason: row.reason,
    initiatorItems: parseJson<AuditedOffer>(row.initiator_items), partnerItems: parseJson<AuditedOffer>(row.partner_items),
    startedAt: iso(millis(row.started_at)), endedAt: iso(millis(row.ended_at)),
  }));
}
