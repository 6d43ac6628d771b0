/**
 * One open trade between two players: it runs the two-screen flow (the pure state function
 * src/game/trade-flow.ts) and carries out its effects — the events, the idle timer, the swap and the one
 * terminal event per player. Every entry point runs its checks and its state change synchronously (so two
 * messages can never interleave inside one step); the only asynchronous step is the swap, entered through the
 * synchronous `completing` state so further accepts are ignored while it runs.
 *
 * Events go to the player's trade-room connection when it has one, otherwise to its world connection (the /ws
 * adapter carries both on one socket, so a JSON player receives each event once either way).
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@colyseus/core';
import type { Containers, ItemWork } from '../../src/db/item-transaction.ts';
import { runItemTransaction } from '../../src/db/item-transaction.ts';
import { tradeAuditStatement, writeTradeAudit } from '../../src/db/trade-audit.ts';
import { isDatabaseUnreachable } from '../../src/db/unreachable.ts';
import { chebyshev } from '../../src/game/geometry.ts';
import type { ItemDefinitions } from '../../src/game/items.ts';
import type { Logger } from '../../src/logger.ts';
import { GameError } from '../../src/game/refusal.ts';
import { mergeReceived, offerValue, reconcileOffer, swapOffers, type OfferRemoval, type SwapResult } from '../../src/game/trade.ts';
import {
  CANCEL_MESSAGES, openTradeFlow, tradeEnded, tradeStep,
  type CancelReason, type TradeFlow, type TradeFlowAction, type TradeFlowEffect, type TradeScreen, type TradeSide,
} from '../../src/game/trade-flow.ts';
import type { OnlinePlayer } from '../world/online-player.ts';
import type { WorldApi } from '../world/world-api.ts';
import { logTradeStep } from './audit.ts';

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
  readonly key: TradeSide;
  readonly player: OnlinePlayer;
  /** The player's connection to the TradeRoom once joined. */
  client: Client | undefined;
}

export interface OfferView {
  items: Array<{ tradeSlot: number; inventorySlot: number; itemId: string; name: string; quantity: number; value: number }>;
  accepted: boolean;
  value: number;
}

type SwapOutcome = { ok: true; swap: SwapResult } | { ok: false; code: string; message: string; side: 'a' | 'b' };

type Ending = Extract<TradeFlowEffect, { type: 'completed' | 'cancelled' }>;

export class TradeSession {
  readonly id: string;
  /** Known only to the server: proves a TradeRoom is being created for this session by the server. */
  readonly roomKey = randomBytes(24).toString('base64url');
  readonly startedAt = new Date();
  readonly initiator: Side;
  readonly partner: Side;
  /** The world both players are in. */
  readonly world: WorldApi;
  private flow: TradeFlow = openTradeFlow();
  private readonly settings: TradeSettings;
  private readonly logger: Logger;
  private readonly onEnd: (session: TradeSession) => void;
  private room: TradeRoomPort | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
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
    this.initiator = { key: 'initiator', player: options.initiator, client: undefined };
    this.partner = { key: 'partner', player: options.partner, client: undefined };
  }

  get screen(): TradeScreen {
    return this.flow.screen;
  }

  get ended(): boolean {
    return tradeEnded(this.flow);
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

  private side(key: TradeSide): Side {
    return key === 'initiator' ? this.initiator : this.partner;
  }

  private other(side: Side): Side {
    return side === this.initiator ? this.partner : this.initiator;
  }

  // ---- lifecycle ----

  attachRoom(room: TradeRoomPort): void {
    this.room = room;
    room.render(this);
  }

  /** The room exists and /ws sockets are linked to it (rooms/client-link.ts): tell both players. */
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
    switch (action.type) {
      case 'add': return this.run({
        type: 'add', side: side.key, inventory: side.player.containers.inventory, items: this.items,
        inventorySlot: action.inventorySlot, quantity: action.quantity,
      });
      case 'remove': return this.run({ type: 'remove', side: side.key, tradeSlot: action.tradeSlot, quantity: action.quantity });
      case 'accept': return this.run({
        type: 'accept', side: side.key, distance: chebyshev(this.initiator.player, this.partner.player), maxDistance: this.settings.maxDistance,
      });
      case 'cancel': return this.run({ type: 'cancel', side: side.key });
    }
  }

  /**
   * One step of the flow, synchronously: the new state, then its effects in order. Resolves with the swap when
   * the step started it (the actor's next event waits for the exchange).
   */
  private run(action: TradeFlowAction): Promise<void> | undefined {
    const step = tradeStep(this.flow, action);
    if (!step.ok) throw new GameError(step.code, step.message, { tradeId: this.id });
    this.flow = step.value.flow;
    let swap: Promise<void> | undefined;
    for (const effect of step.value.effects) {
      switch (effect.type) {
        case 'activity':
          this.touch();
          break;
        case 'added':
          if (action.type === 'add') {
            logTradeStep(this.logger, 'add', { tradeId: this.id, playerId: this.side(effect.side).player.id, inventorySlot: action.inventorySlot, quantity: action.quantity });
          }
          break;
        case 'removed':
          logTradeStep(this.logger, 'remove', { tradeId: this.id, playerId: this.side(effect.side).player.id, ...effect.removal });
          break;
        case 'accepted':
          logTradeStep(this.logger, 'accept', { tradeId: this.id, playerId: this.side(effect.side).player.id, screen: effect.screen });
          break;
        case 'updated':
          this.render();
          for (const side of this.sides()) this.sendUpdate(side, side.key === effect.removedBy ? [] : effect.removals);
          break;
        case 'confirmScreen':
          logTradeStep(this.logger, 'confirm', { tradeId: this.id });
          this.render();
          for (const side of this.sides()) {
            const mine = this.offerView(side);
            const theirs = this.offerView(this.other(side));
            this.sendTo(side, 'tradeConfirmScreen', {
              tradeId: this.id, myOffer: mine, theirOffer: theirs,
              values: { myValue: mine.value, theirValue: theirs.value, difference: theirs.value - mine.value },
            });
          }
          break;
        case 'swap':
          this.render();
          swap = this.swapping = this.swap().finally(() => (this.swapping = undefined));
          break;
        case 'swapRefused':
          this.render();
          break;
        case 'completed':
        case 'cancelled':
          this.finish(effect);
          break;
      }
    }
    return swap;
  }

  // ---- the swap ----

  private async swap(): Promise<void> {
    const [a, b] = this.sides();
    const ids = [a.player.id, b.player.id];
    const offers = { a: this.flow.offers.initiator, b: this.flow.offers.partner };
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
      }, { operation: 'trade', fence: this.world.fence(), claimed: ids });
    } catch (error) {
      this.swapRefused(swapFailure(error, this.logger, this.id));
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
    this.run({ type: 'swapCommitted' });
    const received = { a: mergeReceived(value.swap.receivedByA), b: mergeReceived(value.swap.receivedByB) };
    this.sendTo(a, 'tradeCompleted', { tradeId: this.id, receivedItems: received.a });
    this.sendTo(b, 'tradeCompleted', { tradeId: this.id, receivedItems: received.b });
    for (const side of this.sides()) side.player.client.send('player:sync', side.player.sync());
  }

  /**
   * The swap moved nothing (or, OUTCOME_UNKNOWN, its commit was cut: the audit row it wrote keeps a second swap of
   * this trade from committing): offers trimmed to what the inventories hold, then the cancellation that waited for
   * the swap, or screen 1 again with both players told why.
   */
  private swapRefused(refusal: { code: string; message: string; side: Side | undefined }): void {
    logTradeStep(this.logger, 'swap_refused', { tradeId: this.id, code: refusal.code, playerId: refusal.side?.player.id });
    const removalsBy = new Map<Side, OfferRemoval[]>();
    const offers = { ...this.flow.offers };
    for (const side of this.sides()) {
      const reconciled = reconcileOffer(offers[side.key], side.player.containers.inventory, this.items);
      offers[side.key] = reconciled.offer;
      removalsBy.set(side, reconciled.removals);
    }
    this.run({ type: 'swapRefused', offers });
    if (this.ended) return;
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
    const by = byPlayerId === undefined ? undefined : this.sides().find((s) => s.player.id === byPlayerId)?.key;
    this.run({ type: 'abort', reason, ...(by ? { by } : {}) });
  }

  /** Waits for a running swap (a leaving or dying player's items are settled before they are saved or dropped). */
  async cancelAndSettle(reason: CancelReason): Promise<void> {
    this.cancel(reason);
    await this.settled();
  }

  /** The flow ended the trade: unlock both players, tell them, write the cancelled trade's audit row, close the room. */
  private finish(ending: Ending): void {
    const status = ending.type;
    const reason = ending.type === 'cancelled' ? ending.reason : null;
    clearTimeout(this.idleTimer);
    for (const side of this.sides()) {
      if (side.player.lock === 'trade') side.player.lock = undefined;
    }
    this.onEnd(this);
    this.world.context().metrics.tradeEnded(status, reason);
    this.render();
    if (ending.type === 'cancelled') {
      const by = ending.by ? this.side(ending.by) : undefined;
      const message = ending.reason === 'cancelled' && by ? `${by.player.name} cancelled the trade` : CANCEL_MESSAGES[ending.reason];
      logTradeStep(this.logger, 'cancel', { tradeId: this.id, reason, byPlayerId: by?.player.id });
      for (const side of this.sides()) this.sendTo(side, 'tradeCancelled', { tradeId: this.id, reason, message });
      this.track(writeTradeAudit(this.world.context().db, {
        id: this.id, initiatorId: this.initiator.player.id, partnerId: this.partner.player.id, status: 'cancelled',
        reason, initiatorItems: this.flow.offers.initiator, partnerItems: this.flow.offers.partner, startedAt: this.startedAt,
      }).catch((error) => this.logger.error({ err: error, tradeId: this.id }, 'could not write the trade audit row')));
    } else {
      logTradeStep(this.logger, 'complete', {
        tradeId: this.id, initiatorId: this.initiator.player.id, partnerId: this.partner.player.id,
        initiatorGave: this.flow.offers.initiator, partnerGave: this.flow.offers.partner,
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
    const offer = this.flow.offers[side.key];
    return {
      items: offer.map((entry, tradeSlot) => {
        const item = this.items.get(entry.itemId);
        return {
          tradeSlot, inventorySlot: entry.inventorySlot, itemId: entry.itemId, name: item?.name ?? entry.itemId,
          quantity: entry.quantity, value: (item?.value ?? 0) * entry.quantity,
        };
      }),
      accepted: this.flow.accepted[side.key],
      value: offerValue(offer, this.items),
    };
  }

  private sendUpdate(side: Side, partnerRemoved: readonly OfferRemoval[]): void {
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
      initiator: { id: this.initiator.player.id, offer: this.flow.offers.initiator, accepted: this.flow.accepted.initiator },
      partner: { id: this.partner.player.id, offer: this.flow.offers.partner, accepted: this.flow.accepted.partner },
    };
  }
}

/**
 * Why a swap that threw moved nothing, for the players: the world lost its lease or its database (WORLD_UNAVAILABLE),
 * the database went away while committing (OUTCOME_UNKNOWN: it may have happened), or an internal error.
 */
function swapFailure(error: unknown, logger: Logger, tradeId: string): { code: string; message: string; side: undefined } {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'WORLD_UNAVAILABLE' || code === 'OUTCOME_UNKNOWN' || isDatabaseUnreachable(error)) {
    logger.warn({ tradeId, code }, 'trade swap could not reach the database');
    return code === 'OUTCOME_UNKNOWN'
      ? { code, message: (error as Error).message, side: undefined }
      : { code: 'WORLD_UNAVAILABLE', message: 'This world cannot complete trades right now; nothing was exchanged', side: undefined };
  }
  logger.error({ err: error, tradeId }, 'trade swap failed');
  return { code: 'INTERNAL_ERROR', message: 'The trade could not be completed; nothing was exchanged', side: undefined };
}
