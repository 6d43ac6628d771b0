/**
 * The client → server trade events, one entry each (payload schema and handler; refusals answer `tradeError`),
 * used by both rooms: the world's trade area (rooms/world/features/trade-requests.ts) handles all six, the
 * TradeRoom the four actions inside a trade (once it has checked the connection belongs to that trade).
 */
import { z } from 'zod';
import { on } from '../world/area.ts';
import { tradeServices } from './trade-service.ts';
import type { TradeAction } from './trade-session.ts';

const TradeId = z.string().min(1).max(64);

export const TradeRequest = z.object({ targetPlayerId: z.string().min(1).max(64) });
export const TradeRequestRespond = z.object({ tradeId: TradeId, accept: z.boolean() });
/** Slots and quantities are checked by the rules (INVALID_SLOT, INVALID_QUANTITY), not here. */
export const TradeAddItem = z.object({ tradeId: TradeId, inventorySlot: z.number(), quantity: z.number() });
export const TradeRemoveItem = z.object({ tradeId: TradeId, tradeSlot: z.number(), quantity: z.number().optional() });
export const TradeAccept = z.object({ tradeId: TradeId });
export const TradeCancel = z.object({ tradeId: TradeId });

/** An action inside an open trade, for the trade named by `tradeId`. */
function tradeAction<S extends z.ZodType<{ tradeId: string }>>(schema: S, toAction: (data: z.infer<S>) => TradeAction) {
  return on(schema, ({ world, player }, data) => tradeServices.of(world).act(player, data.tradeId, toAction(data)), 'tradeError');
}

/** The actions handled inside a trade, by the world and by the TradeRoom. */
export const TRADE_ROOM_MESSAGES = {
  tradeAddItem: tradeAction(TradeAddItem, (data) => ({ type: 'add', inventorySlot: data.inventorySlot, quantity: data.quantity })),
  tradeRemoveItem: tradeAction(TradeRemoveItem, (data) => ({ type: 'remove', tradeSlot: data.tradeSlot, quantity: data.quantity })),
  tradeAccept: tradeAction(TradeAccept, () => ({ type: 'accept' })),
  tradeCancel: tradeAction(TradeCancel, () => ({ type: 'cancel' })),
};

/** Every trade event: the request, its answer (world only) and the actions. */
export const TRADE_MESSAGES = {
  /** `tradeRequest {targetPlayerId}` → `tradeIncoming` to the target. */
  tradeRequest: on(TradeRequest, ({ world, player }, data) => tradeServices.of(world).request(player, data.targetPlayerId), 'tradeError'),
  /** `tradeRequestRespond {tradeId, accept}` from the target: opens the trade or declines it. */
  tradeRequestRespond: on(TradeRequestRespond, ({ world, player }, data) => tradeServices.of(world).respond(player, data.tradeId, data.accept), 'tradeError'),
  ...TRADE_ROOM_MESSAGES,
};
