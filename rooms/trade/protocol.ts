/** Payloads of the client → server trade events (validated with zod; refusals answer `tradeError`). */
import { z } from 'zod';
import type { TradeAction } from './trade-session.ts';

const TradeId = z.string().min(1).max(64);

export const TradeRequest = z.object({ targetPlayerId: z.string().min(1).max(64) });
export const TradeRequestRespond = z.object({ tradeId: TradeId, accept: z.boolean() });
/** Slots and quantities are checked by the rules (INVALID_SLOT, INVALID_QUANTITY), not here. */
export const TradeAddItem = z.object({ tradeId: TradeId, inventorySlot: z.number(), quantity: z.number() });
export const TradeRemoveItem = z.object({ tradeId: TradeId, tradeSlot: z.number(), quantity: z.number().optional() });
export const TradeAccept = z.object({ tradeId: TradeId });
export const TradeCancel = z.object({ tradeId: TradeId });

/** The actions handled inside a trade, with their payloads. */
export const TRADE_ACTIONS = {
  tradeAddItem: TradeAddItem,
  tradeRemoveItem: TradeRemoveItem,
  tradeAccept: TradeAccept,
  tradeCancel: TradeCancel,
} as const;

export type TradeActionEvent = keyof typeof TRADE_ACTIONS;

export function toAction(type: TradeActionEvent, data: Record<string, unknown>): TradeAction {
  switch (type) {
    case 'tradeAddItem': return { type: 'add', inventorySlot: data.inventorySlot, quantity: data.quantity };
    case 'tradeRemoveItem': return { type: 'remove', tradeSlot: data.tradeSlot, quantity: data.quantity };
    case 'tradeAccept': return { type: 'accept' };
    case 'tradeCancel': return { type: 'cancel' };
  }
}
