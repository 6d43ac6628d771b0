/**
 * One room per open trade. Created only by the server (matchMaker.createRoom with the session's secret key) when
 * a request is accepted; joined by the two participants — SDK clients with `joinById(roomId)` after
 * `tradeStarted`, /ws sockets by the adapter. The schema state mirrors the session; the trade events reach
 * SDK clients as room messages and /ws clients as JSON events. Disposed when the trade completes or is cancelled.
 */
import { CloseCode, type AuthContext, type Client } from '@colyseus/core';
import type { z } from 'zod';
import { authenticateColyseusClient } from '../src/auth/colyseus.ts';
import type { Identity } from '../src/auth/tokens.ts';
import { gameContext } from '../src/context.ts';
import { VERIFIED_IDENTITY } from '../src/auth/verified-identity.ts';
import { TradeItemState, TradeSideState, TradeState } from '../schema/trade-state.ts';
import { GameError } from '../src/game/refusal.ts';
import { JoinRefusal } from './game-error.ts';
import { GameRoom } from './game-room.ts';
import { TRADE_ROOM_MESSAGES } from './trade/messages.ts';
import { accountIsTrading, claimSession } from './trade/registry.ts';
import type { TradeRoomPort, TradeSession } from './trade/trade-session.ts';
import type { HandlerContext, MessageEntry } from './world/area.ts';
import type { OnlinePlayer } from './world/online-player.ts';

type AdapterAuthContext = AuthContext & { [VERIFIED_IDENTITY]?: Identity };

export class TradeRoom extends GameRoom<TradeState> implements TradeRoomPort {
  override maxClients = 2;
  /** The session closes the room; an empty room waiting for its players must not vanish. */
  override autoDispose = false;
  protected override errorEvent = 'tradeError';
  /** Unset only in a room whose creation was refused. */
  private session: TradeSession | undefined;
  /** The participant behind each connection (by Colyseus session id). */
  private readonly playerBySession = new Map<string, OnlinePlayer>();

  /** Only an account taking part in an open trade may join a trade room (onJoin then checks this very trade). */
  static override async onAuth(_token: string, _options: unknown, context: AdapterAuthContext): Promise<Identity> {
    const identity = context[VERIFIED_IDENTITY] ?? await authenticateColyseusClient(context);
    if (!accountIsTrading(identity.accountId)) throw new JoinRefusal('NOT_PARTICIPANT', 'You are not a participant of an open trade', 403);
    return identity;
  }

  override onCreate(options: { tradeId?: unknown; key?: unknown } = {}): void {
    const session = claimSession(options.tradeId, options.key);
    if (!session) throw new JoinRefusal('FORBIDDEN', 'trade rooms are opened by the server when a trade request is accepted', 403);
    this.session = session;
    this.state = new TradeState();
    void this.setPrivate(true);
    // The world's entries for the trade actions, run for this room's participants and this room's trade only.
    for (const [type, entry] of Object.entries(TRADE_ROOM_MESSAGES) as Array<[string, MessageEntry<z.ZodType<{ tradeId: string }>>]>) {
      this.registerHandler(type, entry.schema, (client, data) => entry.handle(this.participant(session, client, data.tradeId), data), entry.refusal);
    }
    session.attachRoom(this);
  }

  /** The handler context of a connection acting on this room's trade (NOT_PARTICIPANT, TRADE_NOT_FOUND otherwise). */
  private participant(session: TradeSession, client: Client, tradeId: string): HandlerContext {
    const player = this.playerBySession.get(client.sessionId);
    if (!player) throw new GameError('NOT_PARTICIPANT', 'You are not a participant of this trade');
    if (tradeId !== session.id) throw new GameError('NOT_PARTICIPANT', 'You are not a participant of that trade', { tradeId });
    if (session.ended) throw new GameError('TRADE_NOT_FOUND', 'This trade has ended', { tradeId: session.id });
    return { world: session.world, player, client };
  }

  override onJoin(client: Client, _options: unknown, identity: Identity): void {
    this.countSends(client);
    try {
      if (!this.session) throw new GameError('TRADE_NOT_FOUND', 'This trade has ended');
      const player = this.session.bindClient(identity.accountId, client);
      this.playerBySession.set(client.sessionId, player);
    } catch (error) {
      if (error instanceof GameError) throw new JoinRefusal(error.code, error.message, 403);
      throw error;
    }
  }

  override onLeave(client: Client, code?: number): void {
    const player = this.playerBySession.get(client.sessionId);
    if (!player) return;
    this.playerBySession.delete(client.sessionId);
    const reason = code === CloseCode.CONSENTED ? 'cancelled' : code === CloseCode.SERVER_SHUTDOWN ? 'server_shutdown' : 'disconnected';
    this.session?.clientLeft(player.id, reason);
  }

  override onBeforeShutdown(): void {
    this.session?.cancel('server_shutdown');
    this.disconnect(CloseCode.SERVER_SHUTDOWN).catch(() => {});
  }

  override async onDispose(): Promise<void> {
    this.session?.cancel('disconnected');
    await this.session?.settled();
  }

  override sendError(client: Client, error: GameError, event?: string): void {
    const tradeId = typeof error.details?.tradeId === 'string' ? error.details.tradeId : this.session?.id;
    client.send(this.errorEvent, { tradeId, code: error.code, message: error.message, ...(event ? { event } : {}), ...error.details });
  }

  // ---- TradeRoomPort ----

  render(session: TradeSession): void {
    const state = this.state;
    state.tradeId = session.id;
    state.screen = session.screen;
    for (const side of session.sides()) {
      let view = state.sides.get(side.player.id);
      if (!view) {
        view = new TradeSideState();
        view.playerId = side.player.id;
        view.name = side.player.name;
        state.sides.set(side.player.id, view);
      }
      const offer = session.offerView(side);
      view.accepted = offer.accepted;
      view.value = offer.value;
      // In place: schema setters ignore unchanged values, so a patch carries only what changed.
      offer.items.forEach((entry, i) => {
        const item = view.items.at(i) ?? new TradeItemState();
        Object.assign(item, entry);
        if (i >= view.items.length) view.items.push(item);
      });
      while (view.items.length > offer.items.length) view.items.pop();
    }
  }

  close(): void {
    const failed = (error: unknown) => gameContext().logger.warn({ err: error, roomId: this.roomId }, 'could not close the trade room');
    try {
      this.disconnect().catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}
