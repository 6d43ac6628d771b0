/**
 * The trade audit: one structured log line per step (request, response, add, remove, accept, confirm, complete,
 * cancel) and one `trade_audit` row per finished trade. A completed trade's row is written inside the swap's
 * transaction (it exists exactly when the items moved); a cancelled trade's row is written when it ends.
 */
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { AuditedOffer } from '../../src/db/entities/trade-audit.ts';
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

/** Inserts the audit row through `em` (the swap's transaction, or a fresh fork for cancellations). */
export async function writeTradeAudit(em: SqlEntityManager, record: TradeAuditRecord): Promise<void> {
  await em.execute(
    `insert into trade_audit (id, initiator_id, partner_id, status, reason, initiator_items, partner_items, started_at, ended_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      record.id, record.initiatorId, record.partnerId, record.status, record.reason,
      JSON.stringify(auditedOffer(record.initiatorItems)), JSON.stringify(auditedOffer(record.partnerItems)),
      record.startedAt, record.endedAt ?? new Date(),
    ],
  );
}
