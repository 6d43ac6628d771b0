/**
 * The trades of one world: pending requests (expiring), the request cooldown, the open sessions and which player
 * is in which. Opening a trade creates its TradeRoom through the matchmaker (never a client); the session
 * then runs the trade. Leaving the world, a dropped connection (even while the world holds the player's seat for a
 * reconnection), dying and shutting down cancel a player's trade and requests.
 */
import { randomUUID } from 'node:crypto';
import { matchMaker, type Client } from '@colyseus/core';
import { writeTradeAudit } from '../../src/db/trade-audit.ts';
import { worldsOf } from '../../src/db/worlds.ts';
import { chebyshev } from '../../src/game/geometry.ts';
import type { Logger } from '../../src/logger.ts';
import { GameError } from '../../src/game/refusal.ts';
import { CANCEL_MESSAGES, TRADE_DISTANCE, type CancelReason } from '../../src/game/trade-flow.ts';
import { linkClient } from '../client-link.ts';
import { WorldSlot } from '../world/area.ts';
import { itemBudgets } from '../world/item-budget.ts';
import type { OnlinePlayer } from '../world/online-player.ts';
import type { LeaveReason, WorldApi } from '../world/world-api.ts';
import { logTradeStep } from './audit.ts';
import { registerSession, unregisterSession } from './registry.ts';
import { TradeSession, type TradeAction, type TradeSettings } from './trade-session.ts';

export const TRADE_ROOM = 'trade';

export interface TradeServiceSettings extends TradeSettings {
  requestTimeoutMs: number;
  requestCooldownMs: number;
}

interface PendingRequest {
  id: string;
  fromId: string;
  toId: string;
  createdAt: Date;
  timer: NodeJS.Timeout;
}

export class TradeService {
  private readonly world: WorldApi;
  private readonly settings: TradeServiceSettings;
  private readonly logger: Logger;
  private readonly requests = new Map<string, PendingRequest>();
  private readonly sessions = new Map<string, TradeSession>();
  private readonly byPlayer = new Map<string, TradeSession>();
  private readonly lastRequestAt = new Map<string, number>();
  /** Players whose connection dropped, with the client that dropped: they count as connected again once the world
   * has given them a new client (a reconnection within the grace period). */
  private readonly droppedClients = new Map<string, Client>();

  constructor(world: WorldApi, settings: TradeServiceSettings, logger: Logger) {
    this.world = world;
    this.settings = settings;
    this.logger = logger;
  }

  sessionOf(characterId: string): TradeSession | undefined {
    return this.byPlayer.get(characterId);
  }

  /** Whether the player trades now: an open trade, or a pending request it sent or was sent. */
  isTrading(characterId: string): boolean {
    if (this.byPlayer.has(characterId)) return true;
    for (const request of this.requests.values()) if (request.fromId === characterId || request.toId === characterId) return true;
    return false;
  }

  /**
   * `tradeRequest {targetPlayerId}` → `tradeIncoming` to the target. Trades stay inside one world: a target in
   * another world (on any process: the database says where) is NOT_IN_YOUR_WORLD, one in none PLAYER_NOT_FOUND.
   */
  async request(player: OnlinePlayer, targetId: string): Promise<void> {
    if (targetId === player.id) throw new GameError('SELF_TRADE', 'You cannot trade with yourself');
    const target = this.world.player(targetId);
    if (!target) {
      const elsewhere = (await worldsOf(this.world.context().db, [targetId])).get(targetId);
      if (elsewhere !== undefined && elsewhere !== this.world.worldNumber) {
        throw new GameError('NOT_IN_YOUR_WORLD', `That player is in world ${elsewhere}; trade with players of your own world`, { world: elsewhere });
      }
      throw new GameError('PLAYER_NOT_FOUND', 'That player is not in the world');
    }
    if (!this.connected(target)) throw new GameError('PLAYER_NOT_FOUND', `${target.name} is not connected`);
    if (target.accountId === player.accountId) throw new GameError('SELF_TRADE', 'You cannot trade with your own characters');
    const pairKey = `${player.id}>${target.id}`;
    const now = performance.now();
    const last = this.lastRequestAt.get(pairKey);
    if (last !== undefined && now - last < this.settings.requestCooldownMs) {
      throw new GameError('RATE_LIMITED', 'You asked this player to trade a moment ago; wait a few seconds');
    }
    if (this.byPlayer.has(player.id) || player.lock) throw new GameError('ALREADY_IN_TRADE', 'Finish your current trade first');
    if (this.byPlayer.has(target.id) || target.lock) throw new GameError('PLAYER_BUSY', `${target.name} is busy`);
    this.assertClose(player, target);
    this.lastRequestAt.set(pairKey, now);
    this.pruneCooldowns(now);
    const existing = [...this.requests.values()].find((r) => r.fromId === player.id && r.toId === target.id);
    if (existing) this.dropRequest(existing);
    const request: PendingRequest = {
      id: existing?.id ?? randomUUID(), fromId: player.id, toId: target.id, createdAt: new Date(),
      timer: setTimeout(() => this.expire(request.id), this.settings.requestTimeoutMs),
    };
    request.timer.unref?.();
    this.requests.set(request.id, request);
    logTradeStep(this.logger, 'request', { tradeId: request.id, fromId: player.id, toId: target.id });
    target.client.send('tradeIncoming', { tradeId: request.id, fromPlayerId: player.id, fromPlayerName: player.name });
  }

  /** `tradeRequestRespond {tradeId, accept}` from the target. */
  async respond(player: OnlinePlayer, tradeId: string, accept: boolean): Promise<void> {
    const request = this.requests.get(tradeId);
    if (!request) {
      if (this.sessions.has(tradeId)) throw new GameError('NOT_PARTICIPANT', 'Only the requested player can answer this request', { tradeId });
      throw new GameError('TRADE_NOT_FOUND', 'No such trade request (it may have expired)', { tradeId });
    }
    if (request.toId !== player.id) throw new GameError('NOT_PARTICIPANT', 'Only the requested player can answer this request', { tradeId });
    const requester = this.world.player(request.fromId);
    logTradeStep(this.logger, 'respond', { tradeId, playerId: player.id, accept });
    if (!accept) {
      this.dropRequest(request);
      this.endRequest(request, 'declined', [requester, player]);
      return;
    }
    // A requester who dropped lost its requests at once (playerDropped); this guards the same rule.
    if (!requester || !this.connected(requester)) {
      this.dropRequest(request);
      this.endRequest(request, 'disconnected', [player]);
      return;
    }
    if (this.byPlayer.has(player.id) || player.lock) throw new GameError('ALREADY_IN_TRADE', 'Finish your current trade first', { tradeId });
    if (this.byPlayer.has(requester.id) || requester.lock) throw new GameError('PLAYER_BUSY', `${requester.name} is busy`, { tradeId });
    this.assertClose(player, requester, tradeId);
    // A trade is an item transaction of both accounts (and a room): it is paid from both item budgets, so trading
    // between one's accounts cannot buy what inventory moves may not. Refused, the request stays to be accepted later.
    try {
      itemBudgets.of(this.world).spendEach([player.accountId, requester.accountId]);
    } catch (error) {
      if (error instanceof GameError) throw new GameError(error.code, error.message, { ...error.details, tradeId });
      throw error;
    }
    this.dropRequest(request);
    await this.open(request.id, requester, player);
  }

  /** The trade actions, when they reach the world (a player not connected to the trade room, or a non-participant). */
  async act(player: OnlinePlayer, tradeId: string, action: TradeAction): Promise<void> {
    const session = this.sessions.get(tradeId);
    if (!session) {
      if (this.requests.has(tradeId)) throw new GameError('TRADE_NOT_STARTED', 'This trade request has not been accepted', { tradeId });
      throw new GameError('TRADE_NOT_FOUND', 'No such trade', { tradeId });
    }
    await session.act(player.id, action);
  }

  /**
   * A dropped connection ends the player's requests (both ways) and its trade with `disconnected` at once, as
   * leaving does: the world keeps the player's seat for a while, but nobody can trade with a player who is gone.
   */
  async playerDropped(player: OnlinePlayer): Promise<void> {
    this.droppedClients.set(player.id, player.client);
    this.dropRequestsOf(player, 'disconnected');
    await this.byPlayer.get(player.id)?.cancelAndSettle('disconnected');
  }

  /** Leaving the world cancels the player's trade and requests (after a running swap has settled). */
  async playerLeft(player: OnlinePlayer, reason: LeaveReason): Promise<void> {
    this.droppedClients.delete(player.id);
    const cancelReason: CancelReason = reason === 'server_shutdown' ? 'server_shutdown' : 'disconnected';
    this.dropRequestsOf(player, cancelReason);
    await this.byPlayer.get(player.id)?.cancelAndSettle(cancelReason);
  }

  async playerDied(player: OnlinePlayer): Promise<void> {
    this.dropRequestsOf(player, 'player_died');
    await this.byPlayer.get(player.id)?.cancelAndSettle('player_died');
  }

  // ---- internals ----

  /** False while the player's connection is dropped (the world holds its seat, waiting for a reconnection). */
  private connected(player: OnlinePlayer): boolean {
    return this.droppedClients.get(player.id) !== player.client;
  }

  private async open(tradeId: string, initiator: OnlinePlayer, partner: OnlinePlayer): Promise<void> {
    const session = new TradeSession({
      id: tradeId, world: this.world, initiator, partner, settings: this.settings, logger: this.logger,
      onEnd: (ended) => this.forget(ended),
    });
    // Claimed synchronously: from here neither player can start another trade or use the interface.
    initiator.lock = 'trade';
    partner.lock = 'trade';
    initiator.path = [];
    partner.path = [];
    this.sessions.set(tradeId, session);
    this.byPlayer.set(initiator.id, session);
    this.byPlayer.set(partner.id, session);
    registerSession(session);
    try {
      const listing = await matchMaker.createRoom(TRADE_ROOM, { tradeId, key: session.roomKey });
      if (!matchMaker.getLocalRoomById(listing.roomId)) throw new Error('the trade room was created in another process');
    } catch (error) {
      this.logger.error({ err: error, tradeId }, 'could not create the trade room');
      session.cancel('error');
      return;
    }
    // A linked client (/ws) joins the trade room before it is told of the trade (rooms/client-link.ts), so the trade's
    // events and its next actions reach the room; an SDK client joins it itself, by the roomId of tradeStarted.
    const roomId = session.roomId;
    if (!session.ended && roomId) await Promise.all([initiator, partner].map((player) => linkClient(player.client, roomId)));
    if (!session.ended) session.start();
  }

  private forget(session: TradeSession): void {
    unregisterSession(session);
    this.sessions.delete(session.id);
    for (const side of session.sides()) {
      if (this.byPlayer.get(side.player.id) === session) this.byPlayer.delete(side.player.id);
    }
  }

  private assertClose(a: OnlinePlayer, b: OnlinePlayer, tradeId?: string): void {
    if (chebyshev(a, b) > this.settings.maxDistance) {
      throw new GameError('TOO_FAR', `Stand within ${this.settings.maxDistance} tiles of ${b.name} to trade`, tradeId ? { tradeId } : undefined);
    }
  }

  private expire(requestId: string): void {
    const request = this.requests.get(requestId);
    if (!request) return;
    this.requests.delete(requestId);
    logTradeStep(this.logger, 'request_expired', { tradeId: requestId, fromId: request.fromId, toId: request.toId });
    this.endRequest(request, 'request_expired', [this.world.player(request.fromId), this.world.player(request.toId)]);
  }

  private dropRequest(request: PendingRequest): void {
    clearTimeout(request.timer);
    this.requests.delete(request.id);
  }

  private dropRequestsOf(player: OnlinePlayer, reason: CancelReason): void {
    for (const request of [...this.requests.values()]) {
      if (request.fromId !== player.id && request.toId !== player.id) continue;
      this.dropRequest(request);
      const otherId = request.fromId === player.id ? request.toId : request.fromId;
      this.endRequest(request, reason, [this.world.player(otherId)]);
    }
  }

  /** A request that never became a trade: tradeCancelled to whoever is told, and its audit row. */
  private endRequest(request: PendingRequest, reason: CancelReason, notify: Array<OnlinePlayer | undefined>): void {
    logTradeStep(this.logger, 'cancel', { tradeId: request.id, reason, fromId: request.fromId, toId: request.toId });
    this.world.context().metrics.tradeEnded('cancelled', reason);
    for (const player of notify) player?.client.send('tradeCancelled', { tradeId: request.id, reason, message: CANCEL_MESSAGES[reason] });
    void writeTradeAudit(this.world.context().db, {
      id: request.id, initiatorId: request.fromId, partnerId: request.toId, status: 'cancelled', reason,
      initiatorItems: [], partnerItems: [], startedAt: request.createdAt,
    }).catch((error) => this.logger.error({ err: error, tradeId: request.id }, 'could not write the trade audit row'));
  }

  private pruneCooldowns(now: number): void {
    if (this.lastRequestAt.size < 10_000) return;
    for (const [key, at] of this.lastRequestAt) if (now - at >= this.settings.requestCooldownMs) this.lastRequestAt.delete(key);
  }
}

/** The trades of a world (its requests, cooldowns and open sessions), made from the config on first use. */
export const tradeServices = new WorldSlot<TradeService>('trade', (world) => {
  const config = world.context().config;
  return new TradeService(world, {
    maxDistance: TRADE_DISTANCE,
    requestTimeoutMs: config.tradeRequestTimeoutMs,
    requestCooldownMs: config.tradeRequestCooldownMs,
    idleTimeoutMs: config.tradeIdleTimeoutMs,
  }, world.context().logger.child({ component: 'trade' }));
});
