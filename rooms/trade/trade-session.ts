/**
 * One open trade between two players: the two-screen state machine, its timers, the swap and its one terminal
 * event per player. Every entry point runs its checks and its state change synchronously (so two messages can
 * never interleave inside one step); the only asynchronous step is the swap, entered through the synchronous
 * `completing` state so further accepts are ignored while it runs.
 *
 * Events go to the player's trade-room connection when it has one, otherwise to its world connection (the /ws
 * adapter carries both on one socket, so a JSON player receives each event once either way).
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@colyseus/core';
import type { Containers, ItemWork } from '../../src/db/item-transaction.ts';
import { runItemTransaction } from '../../src/db/item-transaction.ts';
import type { ItemDefinitions } from '../../src/game/items.ts';
import type { Logger } from '../../src/logger.ts';
import { GameError } from '../../src/game/refusal.ts';
import type { OnlinePlayer } from '../world/online-player.ts';
import type { WorldApi } from '../world/world-api.ts';
import { logTradeStep, tradeAuditStatement, writeTradeAudit } from './audit.ts';
import {
  addToOffer, mergeReceived, offerValue, reconcileOffer, removeFromOffer, swapOffers,
  type Offer, type OfferRemoval, type SwapResult,
} from '../../src/game/trade.ts';

export type TradeScreen = 'offer' | 'confirm' | 'completing' | 'completed' | 'cancelled';

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

export interface TradeSettings {
  /** Chebyshev distance in tiles allowed at request, acceptance and each accept. */
  maxDistance: number;
  idleTimeoutMs: number;
}

export type TradeAction =
  | { type: 'add'; inventorySlot: unknown; quantity: unknown }
  | { type: 'remove'; tradeSlot: unknown; quantity?: unknown }
  | { type: 'accept' }
  | { type: 'cancel' };

/** What the TradeRoom offers the session: mirror the state, close the room. */
export interface TradeRoomPort {
  readonly roomId: string;
  render(session: TradeSession): void;
  close(): void;
}

interface Side {
  readonly player: OnlinePlayer;
  offer: Offer;
  accepted: boolean;
  /** The player's connection to the TradeRoom once joined. */
  client: Client | undefined;
}

export interface OfferView {
  items: Array<{ tradeSlot: number; inventorySlot: number; itemId: string; name: string; quantity: number; value: number }>;
  accepted: boolean;
  value: number;
}

type SwapOutcome = { ok: true; swap: SwapResult } | { ok: false; code: string; message: string; side: 'a' | 'b' };

export function chebyshev(a: { x: number; z: number }, b: { x: number; z: number }): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));
}

export class TradeSession {
  readonly id: string;
  /** Known only to the server: proves a TradeRoom is being created for this session by the server. */
  readonly roomKey = randomBytes(24).toString('base64url');
  readonly startedAt = new Date();
  screen: TradeScreen = 'offer';
  readonly initiator: Side;
  readonly partner: Side;
  private readonly world: WorldApi;
  private readonly settings: TradeSettings;
  private readonly logger: Logger;
  private readonly onEnd: (session: TradeSession) => void;
  private room: TradeRoomPort | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private pendingCancel: CancelReason | undefined;
  private swapping: Promise<void> | undefined;
  private readonly pendingWrites = new Set<Promise<unknown>>();

  constructor(options: {
    id: string; world: WorldApi; initiator: OnlinePlayer; partner: OnlinePlayer; settings: TradeSettings;
    logger: Logger; onEnd: (session: TradeSession) => void;
  }) {
    this.id = options.id;
    this.world = options.world;
    this.settings = options.settings;
    this.logger = options.logger;
    this.onEnd = options.onEnd;
    this.initiator = { player: options.initiator, offer: [], accepted: false, client: undefined };
    this.partner = { player: options.partner, offer: [], accepted: false, client: undefined };
  }

  get ended(): boolean {
    return this.screen === 'completed' || this.screen === 'cancelled';
  }

  get roomId(): string | undefined {
    return this.room?.roomId;
  }

  private get items(): ItemDefinitions {
    return this.world.data.itemsById;
  }

  sides(): [Side, Side] {
    return [this.initiator, this.partner];
  }

  isParticipant(characterId: string): boolean {
    return this.initiator.player.id === characterId || this.partner.player.id === characterId;
  }

  private sideOf(characterId: string): Side {
    if (this.initiator.player.id === characterId) return this.initiator;
    if (this.partner.player.id === characterId) return this.partner;
    throw new GameError('NOT_PARTICIPANT', 'You are not a participant of this trade', { tradeId: this.id });
  }

  private other(side: Side): Side {
    return side === this.initiator ? this.partner : this.initiator;
  }

  // ---- lifecycle ----

  attachRoom(room: TradeRoomPort): void {
    this.room = room;
    room.render(this);
  }

  /** The room exists: tell both players (the /ws adapter joins JSON sockets to the room on this event). */
  start(): void {
    this.touch();
    logTradeStep(this.logger, 'start', { tradeId: this.id, roomId: this.roomId, initiatorId: this.initiator.player.id, partnerId: this.partner.player.id });
    for (const side of this.sides()) {
      const partner = this.other(side).player;
      side.player.client.send('tradeStarted', { tradeId: this.id, partnerId: partner.id, partnerName: partner.name, roomId: this.roomId });
    }
  }

  /** A TradeRoom connection joins: which side it is (by account; a trade never has one account on both sides). */
  bindClient(accountId: string, client: Client): OnlinePlayer {
    if (this.ended) throw new GameError('TRADE_NOT_FOUND', 'This trade has ended');
    const side = this.sides().find((s) => s.player.accountId === accountId);
    if (!side) throw new GameError('NOT_PARTICIPANT', 'You are not a participant of this trade');
    if (side.client) throw new GameError('ALREADY_JOINED', 'This player is already connected to the trade');
    side.client = client;
    return side.player;
  }

  /** A TradeRoom connection left: closing the trade window cancels, a dropped connection disconnects. */
  clientLeft(characterId: string, reason: CancelReason): void {
    const side = this.sideOf(characterId);
    side.client = undefined;
    this.cancel(reason, characterId);
  }

  /** Resolves when every write of this trade (swap, audit row) has finished. */
  async settled(): Promise<void> {
    while (this.swapping || this.pendingWrites.size > 0) {
      await this.swapping;
      await Promise.allSettled([...this.pendingWrites]);
    }
  }

  // ---- player actions ----

  /** Runs a participant's action; throws a GameError (tradeError to the actor) when refused. */
  async act(characterId: string, action: TradeAction): Promise<void> {
    const side = this.sideOf(characterId);
    if (this.ended) throw new GameError('TRADE_NOT_FOUND', 'This trade has ended', { tradeId: this.id });
    switch (action.type) {
      case 'add': return this.add(side, action.inventorySlot, action.quantity);
      case 'remove': return this.remove(side, action.tradeSlot, action.quantity);
      case 'accept': return this.accept(side);
      case 'cancel':
        if (this.screen === 'completing') throw new GameError('TRADE_COMPLETING', 'The items are being exchanged', { tradeId: this.id });
        this.cancel('cancelled', characterId);
        return;
    }
  }

  private add(side: Side, inventorySlot: unknown, quantity: unknown): void {
    this.assertEditable();
    const result = addToOffer(side.offer, side.player.containers.inventory, this.items, inventorySlot, quantity);
    if (!result.ok) throw new GameError(result.code, result.message, { tradeId: this.id });
    side.offer = result.value;
    logTradeStep(this.logger, 'add', { tradeId: this.id, playerId: side.player.id, inventorySlot, quantity });
    this.offerChanged(side, []);
  }

  private remove(side: Side, tradeSlot: unknown, quantity: unknown): void {
    this.assertEditable();
    const result = removeFromOffer(side.offer, tradeSlot, quantity);
    if (!result.ok) throw new GameError(result.code, result.message, { tradeId: this.id });
    side.offer = result.value.offer;
    logTradeStep(this.logger, 'remove', { tradeId: this.id, playerId: side.player.id, ...result.value.removal });
    this.offerChanged(side, [result.value.removal]);
  }

  private assertEditable(): void {
    if (this.screen === 'completing') throw new GameError('TRADE_COMPLETING', 'The items are being exchanged', { tradeId: this.id });
  }

  /** Any offer change: both accepts reset, screen 2 returns to screen 1, both players see the offers. */
  private offerChanged(actor: Side, removals: OfferRemoval[]): void {
    this.screen = 'offer';
    this.initiator.accepted = false;
    this.partner.accepted = false;
    this.touch();
    this.render();
    for (const side of this.sides()) this.sendUpdate(side, side === actor ? [] : removals);
  }

  private accept(side: Side): Promise<void> | void {
    if (this.screen === 'completing') return; // the swap is running: further accepts are ignored
    this.assertClose();
    this.touch();
    if (side.accepted) return;
    side.accepted = true;
    logTradeStep(this.logger, 'accept', { tradeId: this.id, playerId: side.player.id, screen: this.screen });
    if (!this.other(side).accepted) {
      this.render();
      for (const s of this.sides()) this.sendUpdate(s, []);
      return;
    }
    if (this.screen === 'offer') {
      this.screen = 'confirm';
      this.initiator.accepted = false;
      this.partner.accepted = false;
      logTradeStep(this.logger, 'confirm', { tradeId: this.id });
      this.render();
      for (const s of this.sides()) {
        const mine = this.offerView(s);
        const theirs = this.offerView(this.other(s));
        this.sendTo(s, 'tradeConfirmScreen', {
          tradeId: this.id, myOffer: mine, theirOffer: theirs,
          values: { myValue: mine.value, theirValue: theirs.value, difference: theirs.value - mine.value },
        });
      }
      return;
    }
    // Both accepted on screen 2: synchronously `completing`, then the swap.
    this.screen = 'completing';
    this.render();
    this.swapping = this.swap().finally(() => (this.swapping = undefined));
    return this.swapping;
  }

  /** TOO_FAR unless both players stand within the trade distance. */
  assertClose(): void {
    const distance = chebyshev(this.initiator.player, this.partner.player);
    if (distance > this.settings.maxDistance) {
      throw new GameError('TOO_FAR', `Stand within ${this.settings.maxDistance} tiles of the other player to trade`, { tradeId: this.id });
    }
  }

  // ---- the swap ----

  private async swap(): Promise<void> {
    const [a, b] = this.sides();
    const ids = [a.player.id, b.player.id];
    const offers = { a: a.offer, b: b.offer };
    let outcome: { value: SwapOutcome; containers: ReadonlyMap<string, Containers> };
    try {
      outcome = await runItemTransaction(this.world.context().db, ids, async (_tx, loaded): Promise<ItemWork<SwapOutcome>> => {
        const la = loaded.get(a.player.id)!;
        const lb = loaded.get(b.player.id)!;
        const result = swapOffers(la.inventory, offers.a, lb.inventory, offers.b, this.items);
        if (!result.ok) {
          return { value: { ok: false, code: result.code, message: result.message, side: 'side' in result ? result.side : 'a' }, write: new Map() };
        }
        return {
          value: { ok: true, swap: result.value },
          write: new Map([[a.player.id, { ...la, inventory: result.value.a }], [b.player.id, { ...lb, inventory: result.value.b }]]),
          alsoWrite: [tradeAuditStatement({
            id: this.id, initiatorId: a.player.id, partnerId: b.player.id, status: 'completed', reason: null,
            initiatorItems: offers.a, partnerItems: offers.b, startedAt: this.startedAt,
          })],
        };
      }, { operation: 'trade' });
    } catch (error) {
      this.logger.error({ err: error, tradeId: this.id }, 'trade swap failed');
      this.swapRefused({ code: 'INTERNAL_ERROR', message: 'The trade could not be completed; nothing was exchanged', side: undefined });
      return;
    }
    // Memory follows the committed result (after a refusal: what the database holds now).
    for (const side of this.sides()) {
      const committed = outcome.containers.get(side.player.id);
      if (committed) side.player.containers = committed;
    }
    const value = outcome.value;
    if (!value.ok) {
      this.swapRefused({ code: value.code, message: value.message, side: value.side === 'a' ? a : b });
      return;
    }
    this.finish('completed', null);
    const received = { a: mergeReceived(value.swap.receivedByA), b: mergeReceived(value.swap.receivedByB) };
    this.sendTo(a, 'tradeCompleted', { tradeId: this.id, receivedItems: received.a });
    this.sendTo(b, 'tradeCompleted', { tradeId: this.id, receivedItems: received.b });
    for (const side of this.sides()) side.player.client.send('player:sync', side.player.sync());
  }

  /** The swap moved nothing: back to screen 1 (or the cancellation that waited for it), both players told why. */
  private swapRefused(refusal: { code: string; message: string; side: Side | undefined }): void {
    logTradeStep(this.logger, 'swap_refused', { tradeId: this.id, code: refusal.code, playerId: refusal.side?.player.id });
    const removalsBy = new Map<Side, OfferRemoval[]>();
    for (const side of this.sides()) {
      const reconciled = reconcileOffer(side.offer, side.player.containers.inventory, this.items);
      side.offer = reconciled.offer;
      removalsBy.set(side, reconciled.removals);
    }
    if (this.pendingCancel) {
      this.cancel(this.pendingCancel);
      return;
    }
    this.screen = 'offer';
    this.initiator.accepted = false;
    this.partner.accepted = false;
    this.touch();
    this.render();
    const who = refusal.side ? { playerId: refusal.side.player.id } : {};
    for (const side of this.sides()) {
      const message = refusal.code === 'INVENTORY_FULL' || refusal.code === 'STACK_LIMIT'
        ? `${refusal.side === side ? 'You do' : `${refusal.side?.player.name ?? 'The other player'} does`} not have enough inventory space for this trade`
        : refusal.message;
      this.sendTo(side, 'tradeError', { tradeId: this.id, code: refusal.code, message, ...who });
      this.sendUpdate(side, removalsBy.get(this.other(side)) ?? []);
      side.player.client.send('player:sync', side.player.sync());
    }
  }

  // ---- ending ----

  /**
   * Cancels the trade (idempotent: only the first call ends it). While the swap runs, the cancellation waits for
   * its outcome: a committed swap completes the trade, a refused one is cancelled with this reason.
   */
  cancel(reason: CancelReason, byPlayerId?: string): void {
    if (this.ended) return;
    if (this.screen === 'completing') {
      this.pendingCancel ??= reason;
      return;
    }
    this.finish('cancelled', reason, byPlayerId);
  }

  /** Waits for a running swap (a leaving or dying player's items are settled before they are saved or dropped). */
  async cancelAndSettle(reason: CancelReason): Promise<void> {
    this.cancel(reason);
    await this.settled();
  }

  private finish(status: 'completed' | 'cancelled', reason: CancelReason | null, byPlayerId?: string): void {
    if (this.ended) return;
    this.screen = status;
    clearTimeout(this.idleTimer);
    for (const side of this.sides()) {
      if (side.player.lock === 'trade') side.player.lock = undefined;
    }
    this.onEnd(this);
    this.world.context().metrics.tradeEnded(status, reason);
    this.render();
    if (status === 'cancelled') {
      const by = byPlayerId ? this.sides().find((s) => s.player.id === byPlayerId)?.player : undefined;
      const message = reason === 'cancelled' && by ? `${by.name} cancelled the trade` : CANCEL_MESSAGES[reason!];
      logTradeStep(this.logger, 'cancel', { tradeId: this.id, reason, byPlayerId });
      for (const side of this.sides()) this.sendTo(side, 'tradeCancelled', { tradeId: this.id, reason, message });
      this.track(writeTradeAudit(this.world.context().db.em.fork(), {
        id: this.id, initiatorId: this.initiator.player.id, partnerId: this.partner.player.id, status: 'cancelled',
        reason, initiatorItems: this.initiator.offer, partnerItems: this.partner.offer, startedAt: this.startedAt,
      }).catch((error) => this.logger.error({ err: error, tradeId: this.id }, 'could not write the trade audit row')));
    } else {
      logTradeStep(this.logger, 'complete', {
        tradeId: this.id, initiatorId: this.initiator.player.id, partnerId: this.partner.player.id,
        initiatorGave: this.initiator.offer, partnerGave: this.partner.offer,
      });
    }
    // Close the room after the terminal events went out (its clients then leave; nothing else is sent).
    const room = this.room;
    if (room) queueMicrotask(() => room.close());
  }

  private track(write: Promise<unknown>): void {
    this.pendingWrites.add(write);
    void write.finally(() => this.pendingWrites.delete(write));
  }

  private touch(): void {
    clearTimeout(this.idleTimer);
    if (this.ended) return;
    this.idleTimer = setTimeout(() => this.cancel('idle_timeout'), this.settings.idleTimeoutMs);
    this.idleTimer.unref?.();
  }

  // ---- views and events ----

  offerView(side: Side): OfferView {
    return {
      items: side.offer.map((entry, tradeSlot) => {
        const item = this.items.get(entry.itemId);
        return {
          tradeSlot, inventorySlot: entry.inventorySlot, itemId: entry.itemId, name: item?.name ?? entry.itemId,
          quantity: entry.quantity, value: (item?.value ?? 0) * entry.quantity,
        };
      }),
      accepted: side.accepted,
      value: offerValue(side.offer, this.items),
    };
  }

  private sendUpdate(side: Side, partnerRemoved: OfferRemoval[]): void {
    this.sendTo(side, 'tradeUpdated', {
      tradeId: this.id,
      screen: this.screen === 'confirm' ? 'confirm' : 'offer',
      myOffer: this.offerView(side),
      theirOffer: this.offerView(this.other(side)),
      partnerRemoved: partnerRemoved.map((r) => ({ ...r, name: this.items.get(r.itemId)?.name ?? r.itemId })),
    });
  }

  private sendTo(side: Side, type: string, data: unknown): void {
    (side.client ?? side.player.client).send(type, data);
  }

  private render(): void {
    this.room?.render(this);
  }

  /** Both sides by id, for the admin view and tests. */
  describe(): Record<string, unknown> {
    return {
      tradeId: this.id, screen: this.screen,
      initiator: { id: this.initiator.player.id, offer: this.initiator.offer, accepted: this.initiator.accepted },
      partner: { id: this.partner.player.id, offer: this.partner.offer, accepted: this.partner.accepted },
    };
  }
}
