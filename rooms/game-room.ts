/**
 * Base of the game's rooms: one dispatch path for every client message, whether it came from the Colyseus SDK
 * (binary protocol) or from the /ws JSON adapter. Payloads are validated with zod; a bad payload or a refusal
 * answers the sender with an `error` event and never disconnects it.
 */
import { ClientState, Room, type Client } from '@colyseus/core';
import type { z } from 'zod';
import { gameContext } from '../src/context.ts';
import type { MessageAdmission } from '../src/limits/message-limiter.ts';
import { ROOM_CLOSE } from '../src/close-codes.ts';
import { findNulCharacter, NUL_MESSAGE } from '../src/nul-characters.ts';
import { GameError } from '../src/game/refusal.ts';
import { isRedisUnreachable } from '../src/cluster/unreachable.ts';
import { isDatabaseUnreachable } from '../src/db/unreachable.ts';
import { isLinkedClient } from './client-link.ts';
import { SerialInbox } from '../src/serial-inbox.ts';

/** SDK clients whose sends are already counted. */
const countedClients = new WeakSet<Client>();

type MessageHandler<T> = (client: Client, data: T) => void | Promise<void>;

interface Registration {
  schema: z.ZodType;
  handler: MessageHandler<unknown>;
  /** The event refusals of this message are sent as (the room's `errorEvent` when unset). */
  refusal: string | undefined;
}

/** A `tradeError` refusal of a malformed payload names the trade the client sent, when it sent one (docs/trading.md). */
function sentTradeId(refusal: string | undefined, data: unknown): { tradeId: string } | undefined {
  const tradeId = refusal === 'tradeError' ? (data as { tradeId?: unknown } | null | undefined)?.tradeId : undefined;
  return typeof tradeId === 'string' ? { tradeId: tradeId.slice(0, 64) } : undefined;
}

export interface ErrorEvent {
  code: string;
  message: string;
  event?: string;
  [detail: string]: unknown;
}

export abstract class GameRoom<State extends object> extends Room<{ state: State }> {
  private readonly registrations = new Map<string, Registration>();
  private readonly limiters = new WeakMap<Client, MessageAdmission>();
  /** Per client: its events in line (see dispatch). */
  private readonly inboxes = new WeakMap<Client, SerialInbox>();
  /** Colyseus' own cut-off, a backstop well above the per-connection limit applied in `admitMessage`. */
  override maxMessagesPerSecond = 200;

  /** The event name used for refusals in this room. */
  protected errorEvent = 'error';

  /** Registers a handler for a client event; also routes SDK messages of that type to it. */
  protected registerHandler<S extends z.ZodType>(type: string, schema: S, handler: MessageHandler<z.infer<S>>, refusal?: string): void {
    if (this.registrations.size === 0) {
      this.onMessage('*', (client, messageType, data) => this.receive(client, String(messageType), data));
    }
    this.registrations.set(type, { schema, handler: handler as MessageHandler<unknown>, refusal });
    gameContext().metrics.registerInbound(type);
  }

  /** Whether this room handles the event (the /ws adapter routes by it). */
  handles(type: string): boolean {
    return this.registrations.has(type);
  }

  /**
   * The per-connection message limit for SDK clients (a linked transport — the /ws adapter — limits its connections
   * before routing): excess messages are answered with RATE_LIMITED, a client that keeps flooding is closed (1008).
   */
  protected admitMessage(client: Client): boolean {
    if (isLinkedClient(client)) return true;
    let limiter = this.limiters.get(client);
    if (!limiter) this.limiters.set(client, (limiter = gameContext().auth.createMessageLimiter()));
    const verdict = limiter.hit(performance.now());
    if (verdict === 'allow') return true;
    if (verdict === 'reject') this.sendError(client, new GameError('RATE_LIMITED', 'Too many messages; slow down'));
    else client.leave(ROOM_CLOSE.FLOOD);
    return false;
  }

  /**
   * An SDK client's message, as Colyseus reads it off the socket: limited at once, then handled in its turn of the
   * process' inbound queue, as a /ws frame is (src/sliced-queue.ts): the messages of a thousand sockets read in one
   * poll of the event loop then run in 4 ms slices between the tick's work instead of in one stretch. Every message
   * of a player in a room goes in the urgent lane, so a client's messages keep their order.
   */
  private receive(client: Client, type: string, data: unknown): void {
    if (!this.admitMessage(client)) return;
    gameContext().inbound.push(() => void this.inLine(client, type, data, true), 'urgent');
  }

  /**
   * Handles one event of a client now (a /ws frame in its turn of the inbound queue, an agent's action). A client's
   * events take effect one after another, in the order they arrived (a handler that awaits the database holds the
   * client's next event back; other clients are not held).
   */
  dispatch(client: Client, type: string, data: unknown): void | Promise<void> {
    if (!this.admitMessage(client)) return;
    return this.inLine(client, type, data, false);
  }

  /** An event that had to wait (`queued`, or behind the client's previous one) and whose client has left meanwhile is dropped: its answer would reach no one. */
  private inLine(client: Client, type: string, data: unknown, queued: boolean): void | Promise<void> {
    let inbox = this.inboxes.get(client);
    if (!inbox) {
      inbox = new SerialInbox((error) => gameContext().logger.error({ err: error, room: this.roomName }, 'event dispatch failed'));
      this.inboxes.set(client, inbox);
    }
    return inbox.run((waited) => {
      if ((waited || queued) && (client.state === ClientState.LEAVING || client.state === ClientState.RECONNECTED)) return;
      return this.handleEvent(client, type, data);
    });
  }

  /** Validates and handles one event; returns a promise only when its handler awaits (see SerialInbox). */
  private handleEvent(client: Client, type: string, data: unknown): void | Promise<void> {
    const registration = this.registrations.get(type);
    // Only registered event names become label values, so clients cannot grow the metric's label set.
    gameContext().metrics.countInbound(registration ? type : 'unknown');
    if (!registration) {
      this.sendError(client, new GameError('UNKNOWN_EVENT', `Unknown event "${type.slice(0, 64)}"`), type);
      return;
    }
    const nul = findNulCharacter(data);
    if (nul !== undefined) return this.sendError(client, new GameError('INVALID_PAYLOAD', `Invalid ${type} payload${nul ? ` at ${nul}` : ''}: ${NUL_MESSAGE}`), type, registration.refusal);
    const parsed = registration.schema.safeParse(data ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      this.sendError(client, new GameError('INVALID_PAYLOAD', `Invalid ${type} payload${where}: ${issue?.message ?? 'invalid'}`, sentTradeId(registration.refusal, data)), type, registration.refusal);
      return;
    }
    let handled: void | Promise<void>;
    try {
      handled = registration.handler(client, parsed.data);
    } catch (error) {
      return this.refuseFailure(client, error, type, registration.refusal);
    }
    return handled?.catch((error: unknown) => this.refuseFailure(client, error, type, registration.refusal));
  }

  /**
   * A handler's failure: a GameError is the sender's refusal; a database or (scale-out) Redis that cannot be reached
   * is WORLD_UNAVAILABLE (nothing was committed; docs/scaling.md); anything else is logged and refused as internal.
   */
  private refuseFailure(client: Client, error: unknown, type: string, refusal: string | undefined): void {
    if (error instanceof GameError) {
      this.sendError(client, error, type, refusal);
    } else if (isDatabaseUnreachable(error)) {
      gameContext().logger.warn({ event: type, room: this.roomName }, 'the database cannot be reached: event refused');
      this.sendError(client, new GameError('WORLD_UNAVAILABLE', 'The world cannot reach its database right now; nothing changed, try again shortly', { retryAfterSeconds: 5 }), type, refusal);
    } else if (isRedisUnreachable(error)) {
      gameContext().logger.warn({ event: type, room: this.roomName, err: error }, 'Redis cannot be reached: event refused');
      this.sendError(client, new GameError('WORLD_UNAVAILABLE', 'The server cannot reach the cluster\'s shared store right now; try again shortly', { retryAfterSeconds: 5 }), type, refusal);
    } else {
      gameContext().logger.error({ err: error, event: type, room: this.roomName }, 'message handler failed');
      this.sendError(client, new GameError('INTERNAL_ERROR', 'The server could not process this event'), type, refusal);
    }
  }

  /**
   * Counts the events an SDK client is sent into game_messages_out_total (a linked client's connection counts its
   * own). Call when a client joins or reconnects; once per client.
   */
  protected countSends(client: Client): void {
    if (isLinkedClient(client) || countedClients.has(client)) return;
    countedClients.add(client);
    const metrics = gameContext().metrics;
    const send = client.send.bind(client);
    client.send = ((type: unknown, message?: unknown, options?: unknown) => {
      metrics.countOutbound(typeof type === 'string' ? type : 'other');
      (send as (type: unknown, message?: unknown, options?: unknown) => void)(type, message, options);
    }) as Client['send'];
  }

  sendError(client: Client, error: GameError, event?: string, refusal = this.errorEvent): void {
    const payload: ErrorEvent = { code: error.code, message: error.message, ...(event ? { event } : {}), ...error.details };
    client.send(refusal, payload);
  }
}
