import { defineEntity, p } from '@mikro-orm/core';

export type AuditedOffer = Array<{ itemId: string; quantity: number; metadata?: Record<string, unknown> | null }>;

/** One row per finished trade (completed or cancelled), with both sides' offers. */
export const TradeAuditSchema = defineEntity({
  name: 'TradeAudit',
  tableName: 'trade_audit',
  properties: {
    id: p.text().primary(),
    initiatorId: p.text().index(),
    partnerId: p.text().index(),
    status: p.text(),
    reason: p.text().nullable(),
    initiatorItems: p.json<AuditedOffer>(),
    partnerItems: p.json<AuditedOffer>(),
    startedAt: p.datetime(),
    endedAt: p.datetime().onCreate(() => new Date()),
  },
});
export class TradeAudit extends TradeAuditSchema.class {}
TradeAuditSchema.setClass(TradeAudit);
