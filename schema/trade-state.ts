/**
 * The TradeRoom's synchronised state (data only): the trade id, the screen, and both sides with their offers and
 * accept flags. SDK clients read it through schema sync; /ws clients get the same content in the trade events.
 */
import { schema, t, type SchemaType } from '@colyseus/schema';

export const TradeItemState = schema({
  tradeSlot: t.uint8(),
  inventorySlot: t.uint8(),
  itemId: t.string(),
  name: t.string(),
  quantity: t.int32(),
  /** Unit value × quantity (the item manifests' `value`). */
  value: t.float64(),
}, 'TradeItemState');
export type TradeItemState = SchemaType<typeof TradeItemState>;

export const TradeSideState = schema({
  playerId: t.string(),
  name: t.string(),
  accepted: t.boolean(),
  /** Sum of the offer's entry values. */
  value: t.float64(),
  items: t.array(TradeItemState),
}, 'TradeSideState');
export type TradeSideState = SchemaType<typeof TradeSideState>;

export const TradeState = schema({
  tradeId: t.string(),
  /** offer (screen 1) · confirm (screen 2) · completing (the swap runs) · completed · cancelled */
  screen: t.string(),
  /** The two sides, keyed by character id. */
  sides: t.map(TradeSideState),
}, 'TradeState');
export type TradeState = SchemaType<typeof TradeState>;
