/**
 * One /ws socket: the JSON envelope, first-message authentication, the per-connection message limit, and routing.
 * Once authenticated, every frame goes to the connection's world membership (rooms/entry/membership.ts), which owns
 * entering, leaving, hopping, reconnection and the hand-over to another process; this class is its transport
 * (rooms/entry/membership-port.ts) and knows no game event by name beyond `authenticate`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { CloseCode, createAuthContext, type AuthContext } from '@colyseus/core';
import WebSocket from 'ws';
import type { Identity } from '../auth/tokens.ts';
import { VERIFIED_IDENTITY } from '../auth/verified-identity.ts';
import { ROOM_CLOSE, WS_CLOSE } from '../close-codes.ts';
import { rawSocketOf } from '../colyseus-seams.ts';
import { isDatabaseUnreachable } from '../db/unreachable.ts';
import type { ProcessLocation } from '../cluster/cluster.ts';
import type { MessageAdmission } from '../limits/message-limiter.ts';
import type { Logger } from '../logger.ts';
import { laneInOrder, type Priority, type SlicedQueue } from '../sliced-queue.ts';
import { SerialInbox } from '../serial-inbox.ts';
import type { TextFrame, WorldHop } from '../../rooms/client-link.ts';
import { WorldMembership } from '../../rooms/entry/membership.ts';
import { HandoverFailure, type CodedError, type HandoverPort, type MembershipTransport, type Relay, type RelayEvents } from '../../rooms/entry/membership-port.ts';
import type { UpdateEncoding } from '../../rooms/world/update-frames.ts';
import { encodeEnvelope, parseEnvelope } from './envelope.ts';
import { JsonClient, type JsonChannel } from './json-client.ts';
import { clientAddressOf } from './socket-address.ts';
import { RELAY_MOVE_EVENT, WorldHandover } from './world-handover.ts';

export type { CodedError } from '../../rooms/entry/membership-port.ts';

/** Colyseus close codes → /ws close codes (Colyseus' SERVER_SHUTDOWN is 4001, which /ws uses for auth failures). */
function jsonCloseCode(colyseusCode: number | undefined): number {
  switch (colyseusCode) {
    case CloseCode.SERVER_SHUTDOWN: return WS_CLOSE.SERVICE_RESTART;
    // The world ended the session because its rights ended (rooms/world/features/session-rights.ts).
    case ROOM_CLOSE.SESSION_ENDED: return WS_CLOSE.AUTH_FAILED;
    case CloseCode.WITH_ERROR: return WS_CLOSE.INTERNAL_ERROR;
    case ROOM_CLOSE.FLOOD: return WS_CLOSE.POLICY_VIOLATION;
    case ROOM_CLOSE.WORLD_LOST: return WS_CLOSE.WORLD_LOST;
    default: return WS_CLOSE.NORMAL;
  }
}

/** A verified identity; `issuedToken` is set when the server created a temporary identity (anonymous mode). */
export interface SocketAuthentication {
  identity: Identity;
  issuedToken?: { token: string; expiresAt: Date };
}

export interface ConnectionServices {
  logger: Logger;
  authTimeoutMs: number;
  /**
   * Counts the attempt against the authentication limit and verifies the token; without a token, anonymous
   * mode creates a temporary identity (other modes refuse).
   */
  authenticate(token: string | undefined, ip: string | undefined): Promise<SocketAuthentication>;
  createMessageLimiter(): MessageAdmission;
  /** Turns any thrown value into a coded error for the client. */
  toCodedError(error: unknown): CodedError;
  /** Where every connection's frames wait their turn: one queue per process, run in time slices. */
  inbound: SlicedQueue;
  /** Counts one event sent to the client (metrics; must not allocate). */
  countOutbound?(type: string): void;
  /** Scale-out: finding the process of a world that runs elsewhere (the connection is handed over to it). */
  cluster?: ConnectionCluster;
}

export interface ConnectionCluster {
  /** Signs the client address on hand-over sockets (JWT_SECRET). */
  secret: string | undefined;
  /** The process' internal address when it is another process. */
  locate(processId: string): Promise<ProcessLocation | undefined>;
  /** A process could not be reached: health-check it and reopen its standing worlds elsewhere. */
  recover(location: ProcessLocation): void;
}

export class JsonConnection implements JsonChannel, MembershipTransport {
  /** Names this socket in every log line it writes (`connId`). */
  readonly id = randomUUID();
  readonly log: Logger;
  readonly handover: HandoverPort | undefined;
  private readonly socket: WebSocket;
  private readonly services: ConnectionServices;
  private readonly ip: string | undefined;
  private readonly origin: string | undefined;
  private readonly limiter: MessageAdmission;
  private identity: Identity | undefined;
  private token: string | undefined;
  private authTimer: NodeJS.Timeout | undefined;
  private membership: WorldMembership | undefined;
  private alive = true;
  /** This connection's frames waiting in a lane behind the players' (not yet in a world when they came), and the last such lane. */
  private waitingBehind = 0;
  private waitingIn: Priority = 'others';
  /** The frames in line (see enqueue). */
  private readonly inbox = new SerialInbox((error) => this.log.error({ err: error }, 'ws frame handling failed'));

  /**
   * `handover`: the socket was relayed here by an entry process, with a verified hand-over ticket (its `admitted`:
   * the entry it carries was counted by an approved hop).
   */
  constructor(socket: WebSocket, request: IncomingMessage, services: ConnectionServices, preauthorized?: { token: string; identity: Identity }, handover?: { admitted: boolean }) {
    this.socket = socket;
    this.origin = request.headers.origin;
    this.services = services;
    this.log = services.logger.child({ connId: this.id });
    this.ip = clientAddressOf(request);
    this.handover = services.cluster && this.handoverPort(services.cluster, handover !== undefined);
    this.log.debug({ ip: this.ip }, 'ws connection opened');
    this.limiter = services.createMessageLimiter();
    socket.on('message', (data, isBinary) => this.onFrame(data as Buffer, isBinary));
    socket.on('close', (code, reason) => this.onClose(code, reason.toString()));
    socket.on('error', () => socket.terminate());
    if (preauthorized) {
      this.authenticated(preauthorized.identity, preauthorized.token, handover?.admitted === true);
      this.sendEvent('authResult', { success: true, accountId: preauthorized.identity.accountId });
    } else {
      this.authTimer = setTimeout(() => this.close(WS_CLOSE.AUTH_FAILED, 'authentication timeout'), services.authTimeoutMs);
    }
  }

  // ---- sending (JsonChannel, MembershipTransport) ----

  get readyState(): number {
    return this.socket.readyState;
  }

  get open(): boolean {
    return this.alive;
  }

  sendEvent(type: string, data: unknown): void {
    if (this.socket.readyState === WebSocket.OPEN) this.send(type, encodeEnvelope(type, data));
  }

  sendError(code: string, message: string, event?: string, details?: Record<string, unknown>): void {
    this.log.debug({ code, event }, 'ws event refused');
    this.sendEvent('error', { code, message, ...(event ? { event } : {}), ...details });
  }

  /** Sends a frame already serialised by the room (counted as `event`: world:update unless the room says otherwise). */
  sendText(text: string, event = 'world:update'): void {
    if (this.socket.readyState === WebSocket.OPEN) this.send(event, text);
  }

  /**
   * Sends the frames in one socket write: the socket is corked around ws' own per-frame cork, so the kernel gets
   * one writev for all of them instead of one per frame (a syscall per frame was most of a walker's CPU).
   */
  sendTexts(frames: ReadonlyArray<TextFrame>): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const raw = rawSocketOf(this.socket);
    raw?.cork();
    try {
      for (const frame of frames) this.send(frame.event, frame.text);
    } finally {
      raw?.uncork();
    }
  }

  private send(type: string, frame: string): void {
    this.services.countOutbound?.(type);
    this.socket.send(frame);
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(code, reason);
    }
  }

  thrownOut(colyseusCode: number | undefined): void {
    this.close(jsonCloseCode(colyseusCode), 'left the world');
  }

  // ---- what membership asks of the transport (MembershipTransport) ----

  roomClient(sessionId: string, updates?: UpdateEncoding): JsonClient {
    return new JsonClient(sessionId, this, updates);
  }

  authContext(marks?: Record<symbol, unknown>): AuthContext {
    const context = createAuthContext({ headers: { authorization: `Bearer ${this.token}` }, remoteAddress: this.ip });
    return Object.assign(context, { [VERIFIED_IDENTITY]: this.identity }, marks);
  }

  toCodedError(error: unknown): CodedError {
    return this.services.toCodedError(error);
  }

  /**
   * The connection's frames are handled one at a time, in the order they arrived: a frame waits until the one
   * before it has taken effect (authenticated, entered the world, been handled by the room). Only this
   * connection waits; the world and other connections go on. Once the socket is closing or closed, the frames
   * still waiting are dropped (the room's leave or reconnection logic takes over). Frames go through the
   * process' inbound slices first (src/sliced-queue.ts), so a burst read at once does not hold the event loop.
   */
  enqueue(task: () => void | Promise<void>): void {
    const run = () => void this.inbox.run(() => {
      if (!this.alive || this.socket.readyState !== WebSocket.OPEN) return;
      return task();
    });
    // A player in a world goes before the logins in the process' queue (a storm of them must not delay its moves), and
    // an authenticated socket before those still authenticating (a login under way finishes first) — once none of
    // its own earlier frames waits in a later lane: its frames keep their order.
    const state = this.membership?.state;
    const wanted: Priority = state === 'in-world' || state === 'relayed' ? 'urgent' : this.membership ? 'entries' : 'others';
    const lane = laneInOrder(wanted, this.waitingBehind > 0 ? this.waitingIn : undefined);
    if (lane === 'urgent') return this.services.inbound.push(run, 'urgent');
    this.waitingBehind++;
    this.waitingIn = lane;
    this.services.inbound.push(() => {
      this.waitingBehind--;
      run();
    }, lane);
  }

  // ---- the rooms' side of a client (JsonChannel) ----

  membershipEnded(client: JsonClient, code: number | undefined): void {
    this.membership?.roomEnded(client, code);
  }

  joinRoom(roomId: string): Promise<void> {
    return this.membership?.link(roomId) ?? Promise.resolve();
  }

  hopWorld(client: JsonClient, hop: WorldHop): void {
    this.membership?.approveHop(client, hop);
  }

  // ---- frames ----

  private onFrame(data: Buffer, isBinary: boolean): void {
    if (isBinary) return this.close(WS_CLOSE.UNSUPPORTED_DATA, 'binary frames are not accepted on /ws');
    const text = data.toString('utf8');
    // Handed over: the world's process limits and parses the frames (still in line behind the earlier ones).
    if (!this.membership?.relayed) {
      const verdict = this.limiter.hit(performance.now());
      if (verdict === 'close') return this.close(WS_CLOSE.POLICY_VIOLATION, 'message rate limit exceeded');
      if (verdict === 'reject') return this.sendError('RATE_LIMITED', 'Too many messages; slow down');
    }
    this.enqueue(() => (this.membership?.relayed ? this.membership.forward(text) : this.handleText(text)));
  }

  /** Handles one frame; returns a promise only when its handling awaits (see SerialInbox). */
  private handleText(text: string): void | Promise<void> {
    const parsed = parseEnvelope(text);
    if (!parsed.ok) return this.sendError(parsed.code, parsed.message);
    const { type, data: payload } = parsed.envelope;
    let routed: void | Promise<void>;
    try {
      routed = this.route(type, payload);
    } catch (error) {
      return this.refuse(error, type);
    }
    return routed?.catch((error: unknown) => this.refuse(error, type));
  }

  /** An event's failure, answered as its coded error. */
  private refuse(error: unknown, event: string): void {
    const coded = this.services.toCodedError(error);
    this.sendError(coded.code, coded.message, event, coded.details);
  }

  /** Routes one event; returns a promise only when it awaits (an entry, a handler that awaits, a hop). */
  private route(type: string, data: Record<string, unknown>): void | Promise<void> {
    if (type === 'authenticate') return this.onAuthenticate(data);
    if (!this.membership) {
      // The first message must be `authenticate` (docs/protocol.md): anything else ends the connection.
      this.sendError('AUTH_REQUIRED', 'The first message must be authenticate', type);
      return this.close(WS_CLOSE.AUTH_FAILED, 'authentication required');
    }
    return this.membership.handle(type, data);
  }

  // ---- authentication ----

  private authenticated(identity: Identity, token: string, preadmitted = false): void {
    this.identity = identity;
    this.token = token;
    this.membership = new WorldMembership(this, identity, { preadmitted });
  }

  private async onAuthenticate(data: Record<string, unknown>): Promise<void> {
    if (this.identity) return this.sendError('ALREADY_AUTHENTICATED', 'This connection is already authenticated', 'authenticate');
    // Absent: no token (anonymous mode creates an identity). Present, it must be a non-empty string.
    if ('token' in data && (typeof data.token !== 'string' || data.token.length === 0)) {
      return this.refuseAuthentication({ code: 'TOKEN_INVALID', message: '"token" must be a non-empty string (omit it for a temporary identity)' });
    }
    const token = data.token as string | undefined;
    let result: SocketAuthentication;
    try {
      result = await this.services.authenticate(token, this.ip);
    } catch (error) {
      // The database could not be reached: the token was not refused, the server is unavailable (docs/scaling.md).
      if (isDatabaseUnreachable(error)) {
        return this.refuseAuthentication({ code: 'SERVICE_UNAVAILABLE', message: 'The server cannot reach its database right now; try again shortly' }, WS_CLOSE.TRY_AGAIN_LATER);
      }
      return this.refuseAuthentication(this.services.toCodedError(error));
    }
    const issued = result.issuedToken;
    this.authenticated(result.identity, issued?.token ?? token!);
    clearTimeout(this.authTimer);
    this.log.debug({ accountId: result.identity.accountId }, 'ws authenticated');
    this.sendEvent('authResult', {
      success: true,
      accountId: result.identity.accountId,
      ...(result.identity.characterId ? { characterId: result.identity.characterId } : {}),
      ...(issued ? { token: issued.token, expiresAt: issued.expiresAt.toISOString(), temporary: true } : {}),
    });
    if (typeof data.characterId === 'string' || typeof data.reconnectionToken === 'string') await this.membership!.enter(data);
  }

  private refuseAuthentication(error: CodedError, closeCode: number = WS_CLOSE.AUTH_FAILED): void {
    this.log.debug({ code: error.code }, 'ws authentication refused');
    this.sendEvent('authResult', { success: false, error: { code: error.code, message: error.message } });
    this.close(closeCode, closeCode === WS_CLOSE.AUTH_FAILED ? 'authentication failed' : 'service unavailable');
  }

  // ---- scale-out: the hand-over to the world's process (world-handover.ts) ----

  private handoverPort(cluster: ConnectionCluster, relayed: boolean): HandoverPort {
    return {
      relayed,
      locate: (processId) => cluster.locate(processId),
      requestMove: (data) => this.sendEvent(RELAY_MOVE_EVENT, data),
      open: (location, enter, events, admitted) => this.openHandover(cluster, location, enter, events, admitted),
    };
  }

  private async openHandover(cluster: ConnectionCluster, location: ProcessLocation, enter: Record<string, unknown>, events: RelayEvents, admitted: boolean): Promise<Relay> {
    const handover = new WorldHandover({
      internalAddress: location.internalAddress, clientAddress: this.ip ?? '', secret: cluster.secret, token: this.token!, origin: this.origin,
      ticket: { accountId: this.identity!.accountId, connection: this.id, to: location.processId, admitted },
    }, enter, {
      deliver: (text) => this.sendText(text, 'relayed'),
      move: (moved) => events.move(moved),
      closed: (code, reason, lost) => {
        events.closed(lost);
        if (lost) cluster.recover(location);
        this.close(code, reason);
      },
    });
    try {
      await handover.ready;
    } catch (error) {
      if (error instanceof HandoverFailure) {
        if (error.unreachable) cluster.recover(location);
        this.close(error.closeCode, error.message);
      }
      throw error;
    }
    return handover;
  }

  private onClose(code: number, reason: string): void {
    this.log.debug('ws connection closed');
    this.alive = false;
    clearTimeout(this.authTimer);
    this.membership?.socketClosed(code, reason);
  }
}
