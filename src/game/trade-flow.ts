/**
 * The two-screen trade flow as a pure state function (no I/O, no timers): `tradeStep(flow, action)` answers the
 * next state and the effects the session carries out (events, the idle timer, the swap), or a refusal that
 * changes nothing.
 *
 * Screen 1 (`offer`): both players edit their offers; any change resets both accepts (and an edit on screen 2
 * returns both players to screen 1). Both accepting on screen 1 opens screen 2 (`confirm`) with both accepts
 * reset; both accepting on screen 2 makes the trade `completing` at once: further accepts are ignored, edits and
 * cancels refused (TRADE_COMPLETING), and a cancellation from outside (a disconnect, a death, the idle timer)
 * waits for the swap's outcome. A committed swap completes the trade; a refused one cancels it when a
 * cancellation waited, otherwise returns to screen 1 with both accepts reset. The offer rules themselves are in
 * trade.ts.
 */
import type { Inventory } from './inventory.ts';
import type { ItemDefinitions } from './items.ts';
import { ok, refuse, type Result } from './result.ts';
import { addToOffer, removeFromOffer, type Offer, type OfferCode, type OfferRemoval } from './trade.ts';

/** Tiles (Chebyshev) allowed between the two players at the request, its acceptance and each accept. */
export const TRADE_DISTANCE = 2;

export type TradeScreen = 'offer' | 'confirm' | 'completing' | 'completed' | 'cancelled';

/** The player who asked (`initiator`) and the player who accepted the request (`partner`). */
export type TradeSide = 'initiator' | 'partner';

export type CancelReason =
  | 'cancelled' | 'declined' | 'request_expired' | 'disconnected' | 'player_died' | 'server_shutdown'
  | 'idle_timeout' | 'error';

export const CANCEL_MESSAGES: Record<CancelReason, string> = {
  cancelled: 'The trade was cancelled',
  declined: 'The trade request was declined',
  request_expired: 'The trade request expired',
  disconnected: 'A player disconnected',
  player_died: 'A player died',
  server_shutdown: 'The server is shutting down',
  idle_timeout: 'The trade was idle for too long',
  error: 'The trade could not be opened',
};

export interface TradeFlow {
  readonly screen: TradeScreen;
  readonly offers: Readonly<Record<TradeSide, Offer>>;
  readonly accepted: Readonly<Record<TradeSide, boolean>>;
  /** A cancellation that arrived while the swap ran (applied if the swap is refused). */
  readonly pendingCancel?: CancelReason;
}

export type TradeFlowAction =
  /** A player's actions (refused once the trade ended). */
  | { readonly type: 'add'; readonly side: TradeSide; readonly inventory: Inventory; readonly items: ItemDefinitions; readonly inventorySlot: unknown; readonly quantity: unknown }
  | { readonly type: 'remove'; readonly side: TradeSide; readonly tradeSlot: unknown; readonly quantity?: unknown }
  /** `distance`: Chebyshev tiles between the players now; more than `maxDistance` is TOO_FAR. */
  | { readonly type: 'accept'; readonly side: TradeSide; readonly distance: number; readonly maxDistance: number }
  | { readonly type: 'cancel'; readonly side: TradeSide }
  /** A cancellation from outside (leaving, a dropped connection, death, shutdown, the idle timer); never refused. */
  | { readonly type: 'abort'; readonly reason: CancelReason; readonly by?: TradeSide }
  /** The swap's outcome; a refused swap brings the offers trimmed to what the inventories still hold. */
  | { readonly type: 'swapCommitted' }
  | { readonly type: 'swapRefused'; readonly offers: Readonly<Record<TradeSide, Offer>> };

export type TradeFlowEffect =
  /** The trade saw activity: restart the idle timer. */
  | { readonly type: 'activity' }
  | { readonly type: 'added'; readonly side: TradeSide }
  | { readonly type: 'removed'; readonly side: TradeSide; readonly removal: OfferRemoval }
  /** A side accepted (on `screen`). */
  | { readonly type: 'accepted'; readonly side: TradeSide; readonly screen: 'offer' | 'confirm' }
  /** Both players see the offers (`tradeUpdated`); `removals` made by `removedBy` are flagged to the other. */
  | { readonly type: 'updated'; readonly removedBy?: TradeSide; readonly removals: readonly OfferRemoval[] }
  /** Both accepted on screen 1: screen 2 opens. */
  | { readonly type: 'confirmScreen' }
  /** Both accepted on screen 2: run the swap (the flow is `completing`). */
  | { readonly type: 'swap' }
  /** The swap was refused and nobody cancelled meanwhile: back on screen 1. */
  | { readonly type: 'swapRefused' }
  | { readonly type: 'completed' }
  | { readonly type: 'cancelled'; readonly reason: CancelReason; readonly by?: TradeSide };

export type TradeFlowCode = OfferCode | 'TRADE_NOT_FOUND' | 'TRADE_COMPLETING' | 'TOO_FAR';

export interface TradeFlowStep {
  readonly flow: TradeFlow;
  readonly effects: readonly TradeFlowEffect[];
}

export const TRADE_SIDES: readonly TradeSide[] = ['initiator', 'partner'];

export function otherSide(side: TradeSide): TradeSide {
  return side === 'initiator' ? 'partner' : 'initiator';
}

/** A new trade: screen 1, empty offers, nobody accepted. */
export function openTradeFlow(): TradeFlow {
  return { screen: 'offer', offers: { initiator: [], partner: [] }, accepted: { initiator: false, partner: false } };
}

export function tradeEnded(flow: TradeFlow): boolean {
  return flow.screen === 'completed' || flow.screen === 'cancelled';
}

const NOT_ACCEPTED = { initiator: false, partner: false } as const;

const unchanged = (flow: TradeFlow, effects: TradeFlowEffect[] = []): Result<TradeFlowStep, TradeFlowCode> => ok({ flow, effects });

/** The next state of the trade and what to do about it, or a refusal (nothing changes). */
export function tradeStep(flow: TradeFlow, action: TradeFlowAction): Result<TradeFlowStep, TradeFlowCode> {
  switch (action.type) {
    case 'add':
    case 'remove':
    case 'accept':
    case 'cancel':
      if (tradeEnded(flow)) return refuse('TRADE_NOT_FOUND', 'This trade has ended');
      return playerStep(flow, action);
    case 'abort':
      if (tradeEnded(flow)) return unchanged(flow);
      if (flow.screen === 'completing') return unchanged({ ...flow, pendingCancel: flow.pendingCancel ?? action.reason });
      return unchanged({ ...flow, screen: 'cancelled' }, [{ type: 'cancelled', reason: action.reason, ...(action.by ? { by: action.by } : {}) }]);
    case 'swapCommitted':
      if (flow.screen !== 'completing') return unchanged(flow);
      return unchanged({ ...flow, screen: 'completed' }, [{ type: 'completed' }]);
    case 'swapRefused': {
      if (flow.screen !== 'completing') return unchanged(flow);
      const trimmed = { ...flow, offers: action.offers };
      if (flow.pendingCancel) return unchanged({ ...trimmed, screen: 'cancelled' }, [{ type: 'cancelled', reason: flow.pendingCancel }]);
      return unchanged({ ...trimmed, screen: 'offer', accepted: NOT_ACCEPTED }, [{ type: 'activity' }, { type: 'swapRefused' }]);
    }
  }
}

type PlayerAction = Extract<TradeFlowAction, { type: 'add' | 'remove' | 'accept' | 'cancel' }>;

function playerStep(flow: TradeFlow, action: PlayerAction): Result<TradeFlowStep, TradeFlowCode> {
  const completing = flow.screen === 'completing';
  switch (action.type) {
    case 'add': {
      if (completing) return refuse('TRADE_COMPLETING', 'The items are being exchanged');
      const added = addToOffer(flow.offers[action.side], action.inventory, action.items, action.inventorySlot, action.quantity);
      if (!added.ok) return added;
      return unchanged(offerChanged(flow, action.side, added.value), [
        { type: 'added', side: action.side }, { type: 'activity' }, { type: 'updated', removals: [] },
      ]);
    }
    case 'remove': {
      if (completing) return refuse('TRADE_COMPLETING', 'The items are being exchanged');
      const removed = removeFromOffer(flow.offers[action.side], action.tradeSlot, action.quantity);
      if (!removed.ok) return removed;
      const { offer, removal } = removed.value;
      return unchanged(offerChanged(flow, action.side, offer), [
        { type: 'removed', side: action.side, removal }, { type: 'activity' }, { type: 'updated', removedBy: action.side, removals: [removal] },
      ]);
    }
    case 'accept':
      return accept(flow, action);
    case 'cancel':
      if (completing) return refuse('TRADE_COMPLETING', 'The items are being exchanged');
      return unchanged({ ...flow, screen: 'cancelled' }, [{ type: 'cancelled', reason: 'cancelled', by: action.side }]);
  }
}

/** Any offer change: both accepts reset, screen 2 returns to screen 1. */
function offerChanged(flow: TradeFlow, side: TradeSide, offer: Offer): TradeFlow {
  return { ...flow, screen: 'offer', offers: { ...flow.offers, [side]: offer }, accepted: NOT_ACCEPTED };
}

function accept(flow: TradeFlow, action: Extract<TradeFlowAction, { type: 'accept' }>): Result<TradeFlowStep, TradeFlowCode> {
  if (flow.screen === 'completing') return unchanged(flow); // the swap is running: further accepts are ignored
  if (action.distance > action.maxDistance) {
    return refuse('TOO_FAR', `Stand within ${action.maxDistance} tiles of the other player to trade`);
  }
  if (flow.accepted[action.side]) return unchanged(flow, [{ type: 'activity' }]);
  const screen = flow.screen === 'confirm' ? 'confirm' : 'offer';
  const accepted: TradeFlowEffect = { type: 'accepted', side: action.side, screen };
  if (!flow.accepted[otherSide(action.side)]) {
    return unchanged({ ...flow, accepted: { ...flow.accepted, [action.side]: true } }, [{ type: 'activity' }, accepted, { type: 'updated', removals: [] }]);
  }
  if (screen === 'offer') {
    return unchanged({ ...flow, screen: 'confirm', accepted: NOT_ACCEPTED }, [{ type: 'activity' }, accepted, { type: 'confirmScreen' }]);
  }
  return unchanged({ ...flow, screen: 'completing', accepted: { initiator: true, partner: true } }, [{ type: 'activity' }, accepted, { type: 'swap' }]);
}
