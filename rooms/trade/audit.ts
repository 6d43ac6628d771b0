/**
 * The trade audit: one structured log line per step (request, response, add, remove, accept, confirm, complete,
 * cancel) and one `trade_audit` row per finished trade. A completed trade's row is written by the swap's own
 * statement (it exists exactly when the items moved); a cancelled trade's row is written when it ends.
 */
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { AuditedOffer } from '../../src/db/entities/trade-audit.ts';
import type { SqlStatement } from '../../src/db/item-transaction.ts';
import type { Logger } from '../../src/logger.ts';
import type { Offer } from '../../src/game/trade.ts';

export type TradeStep =
  | 'request' | 'request_expired' | 'respond' | 'start' | 'add' | 'remove' | 'accept' | 'confirm'
  | 'swap_refused' | 'complete' | 'cancel';

export function logTradeStep(logger: Logger, step: TradeStep, fields: Record<string, unknown>): void {
  logger.info({ trade: { step, ...fields } }, `trade ${step}`);
}

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

/** Inserts the audit row of a trade that ended without a swap (a fresh fork of the entity manager). */
export async function writeTradeAudit(em: SqlEntityManager, record: TradeAuditRecord): Promise<void> {
  const { sql, params } = tradeAuditStatement(record);
  await em.execute(sql, params);
}
