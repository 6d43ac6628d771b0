/**
 * One /ws socket: first-message authentication, the JSON envelope, the per-connection message limit, and the
 * routing of spec events to the room that owns them: the world, and a room a room linked the connection to
 * (rooms/client-link.ts: a trade room, joined before the player is told the trade started). Game rules live in the
 * rooms; this only translates, and knows no game event by name beyond its own (authenticate, world:*).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { CloseCode, connectClientToRoom, createAuthContext, matchMaker, type AuthContext } from '@colyseus/core';
import WebSocket from 'ws';
import { VERIFIED_IDENTITY, type VerifiedIdentity } from '../auth/verified-identity.ts';
import { ROOM_CLOSE, WS_CLOSE } from '../close-codes.ts';
import { GameError } from '../game/refusal.ts';
import type { MessageAdmission } from '../limits/message-limiter.ts';
import type { Logger } from '../logger.ts';
import { encodeEnvelope, parseEnvelope } from './envelope.ts';
import { JsonClient, type JsonChannel } from './json-client.ts';
import { clientLink, type TextFrame, type WorldHop } from '../../rooms/client-link.ts';
import { isUpdateEncoding, UPDATE_ENCODINGS, type UpdateEncoding } from '../../rooms/world/update-frames.ts';
import { clientAddressOf } from './socket-address.ts';
import { findWorld, pickWorld, requestedWorld, reserveWorldSeat } from '../../rooms/world/world-choice.ts';
import type { ProcessLocation } from '../cluster/cluster.ts';
import { HandoverFailure, RELAY_MOVE_EVENT, WorldHandover } from './world-handover.ts';
import { SerialInbox } from '../serial-inbox.ts';
import type { SlicedQueue } from '../sliced-queue.ts';

export type { VerifiedIdentity } from '../auth/verified-identity.ts';

/** Colyseus close codes → /ws close codes (Colyseus' SERVER_SHUTDOWN is 4001, which /ws uses for auth failures). */
function jsonCloseCode(colyseusCode: number | undefined): number {
  switch (colyseusCode) {
    case CloseCode.SERVER_SHUTDOWN: return WS_CLOSE.SERVICE_RESTART;
    // The world ended the session because its rights ended (rooms/world/features/session-rights.ts).
    case ROOM_CLOSE.SESSION_ENDED: return WS_CLOSE.AUTH_FAILED;
    case CloseCode.WITH_ERROR: return WS_CLOSE.INTERNAL_ERROR;
    case ROOM_CLOSE.FLOOD: return WS_CLOSE.POLICY_VIOLATION;
    default: return WS_CLOSE.NORMAL;
  }
}

/** How many times an entry the server placed picks another world after the one it picked filled up. */
const MAX_PICKS = 5;

/** A JSON client never decodes the room's schema: Colyseus need not build (or send) its reflection handshake. */
const JSON_JOIN = { skipHandshake: true } as const;

/** A refusal carrying a stable code, from authentication or from the matchmaker/room. */
export interface CodedError {
  code: string;
  message: string;
}

/** A verified identity; `issuedToken` is set when the server created a temporary identity (anonymous mode). */
export interface SocketAuthentication {
  identity: VerifiedIdentity;
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

/** An entry's outcome: a seat in a world of this process, a hand-over to the world's process, or a move asked of the entry process. */
type Entry = { membership: RoomMembership } | { handover: WorldHandover } | { moved: true };

/** The rooms' side of routing: whether a room handles an event, and handing it over. */
interface RoutableRoom {
  roomId: string;
  /** A world room's number (docs/worlds.md). */
  worldNumber?: number;
  handles(type: string): boolean;
  dispatch(client: JsonClient, type: string, data: unknown): void | Promise<void>;
  /** Whether the session belongs to this account (guards reconnection). */
  sessionBelongsTo?(sessionId: string, accountId: string): boolean;
  /** Whether a reconnection token is that of a client connected now. */
  isConnectedWith?(reconnectionToken: string): boolean;
}

type RoomMembership = { room: RoutableRoom; client: JsonClient };

function invalidReconnection(message = 'The reconnection token is unknown, used or expired'): GameError {
  return new GameError('INVALID_RECONNECTION_TOKEN', message);
}

export class JsonConnection implements JsonChannel {
  /** Names this socket in every log line it writes (`connId`). */
  readonly id = randomUUID();
  private readonly socket: WebSocket;
  private readonly services: ConnectionServices;
  private readonly log: Logger;
  private readonly ip: string | undefined;
  private readonly limiter: MessageAdmission;
  private identity: VerifiedIdentity | undefined;
  private token: string | undefined;
  private authTimer: NodeJS.Timeout | undefined;
  private world: RoomMembership | undefined;
  /** The room a room linked this connection to (a trade room), besides the world. */
  private linked: RoomMembership | undefined;
  /** While joining a linked room: frames wait, so those sent after the room's first event reach it. */
  private linking: Promise<void> | undefined;
  private joining = false;
  /** While entering the world: game events wait for the join, since the room talks to the client during it. */
  private worldJoin: Promise<unknown> | undefined;
  /** While a `world:leave` is being saved by the room. */
  private leaving: Promise<void> | undefined;
  private leavingClient: { client: JsonClient; done: () => void; quiet: boolean } | undefined;
  /** A world hop the world approved while handling the current event (carried out before the next: route). */
  private approvedHop: { client: JsonClient; hop: WorldHop } | undefined;
  private alive = true;
  /** Scale-out: the connection was handed over to the process running its world; frames are copied to it. */
  private relay: WorldHandover | undefined;
  /** The socket was relayed here by an entry process: a world elsewhere is reached through that process (relay:move). */
  private readonly relayed: boolean;
  private readonly origin: string | undefined;
  /** The frames in line (see enqueue). */
  private readonly inbox = new SerialInbox((error) => this.log.error({ err: error }, 'ws frame handling failed'));

  constructor(socket: WebSocket, request: IncomingMessage, services: ConnectionServices, preauthorized?: { token: string; identity: VerifiedIdentity }, relayed = false) {
    this.socket = socket;
    this.relayed = relayed;
    this.origin = request.headers.origin;
    this.services = services;
    this.log = services.logger.child({ connId: this.id });
    this.ip = clientAddressOf(request);
    this.log.debug({ ip: this.ip }, 'ws connection opened');
    this.limiter = services.createMessageLimiter();
    socket.on('message', (data, isBinary) => this.onFrame(data as Buffer, isBinary));
    socket.on('close', (code, reason) => this.onClose(code, reason.toString()));
    socket.on('error', () => socket.terminate());
    if (preauthorized) {
      this.identity = preauthorized.identity;
      this.token = preauthorized.token;
      this.sendEvent('authResult', { success: true, accountId: preauthorized.identity.accountId });
    } else {
      this.authTimer = setTimeout(() => this.closeWith(WS_CLOSE.AUTH_FAILED, 'authentication timeout'), services.authTimeoutMs);
    }
  }

  get readyState(): number {
    return this.socket.readyState;
  }

  sendEvent(type: string, data: unknown): void {
    if (this.socket.readyState === WebSocket.OPEN) this.send(type, encodeEnvelope(type, data));
  }

  private send(type: string, frame: string): void {
    this.services.countOutbound?.(type);
    this.socket.send(frame);
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
    const raw = (this.socket as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    raw?.cork();
    try {
      for (const frame of frames) this.send(frame.event, frame.text);
    } finally {
      raw?.uncork();
    }
  }

  membershipEnded(client: JsonClient, code: number | undefined): void {
    if (this.leavingClient?.client === client) {
      const { done, quiet } = this.leavingClient;
      done();
      this.leavingClient = undefined;
      this.leaving = undefined;
      if (!quiet) this.sendEvent('world:left', {});
    } else if (this.linked?.client === client) {
      this.linked = undefined;
    } else if (this.world?.client === client) {
      this.world = undefined;
      // Thrown out of the world (kicked, shutdown): the connection has nothing left to do.
      this.closeWith(jsonCloseCode(code), 'left the world');
    }
  }

  /**
   * The ClientLink's joinRoom: a room (the world, when a trade starts) links this connection to another room of this
   * process and awaits it before telling the player. One join at a time; a join that fails is logged and the
   * connection stays where it was.
   */
  joinRoom(roomId: string): Promise<void> {
    const join = (this.linking ?? Promise.resolve()).then(async () => {
      try {
        if (this.alive) await this.joinLinkedRoom(roomId);
      } catch (error) {
        this.log.warn({ err: error, roomId }, 'could not join the linked room');
      }
    }).finally(() => {
      if (this.linking === join) this.linking = undefined;
    });
    this.linking = join;
    return join;
  }

  private async joinLinkedRoom(roomId: string): Promise<void> {
    const room = matchMaker.getLocalRoomById(roomId) as unknown as RoutableRoom | undefined;
    if (!room || !this.token) return;
    const reservation = await matchMaker.joinById(roomId, {}, this.authContext());
    const client = new JsonClient(reservation.sessionId, this);
    this.linked = { room, client };
    try {
      await connectClientToRoom(room as never, client, this.authContext(), JSON_JOIN);
    } catch (error) {
      if (this.linked?.client === client) this.linked = undefined;
      throw error;
    }
    if (!this.alive) client.disconnected();
  }

  private authContext(): AuthContext {
    const context = createAuthContext({ headers: { authorization: `Bearer ${this.token}` }, remoteAddress: this.ip });
    return Object.assign(context, { [VERIFIED_IDENTITY]: this.identity });
  }

  private onFrame(data: Buffer, isBinary: boolean): void {
    if (isBinary) return this.closeWith(WS_CLOSE.UNSUPPORTED_DATA, 'binary frames are not accepted on /ws');
    const text = data.toString('utf8');
    // Handed over: the world's process limits and parses the frames (still in line behind the earlier ones).
    if (this.relay) return this.enqueue(() => (this.relay ? this.relay.forward(text) : this.handleText(text)));
    const verdict = this.limiter.hit(performance.now());
    if (verdict === 'close') return this.closeWith(WS_CLOSE.POLICY_VIOLATION, 'message rate limit exceeded');
    if (verdict === 'reject') return this.sendError('RATE_LIMITED', 'Too many messages; slow down');
    this.enqueue(() => (this.relay ? this.relay.forward(text) : this.handleText(text)));
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
    this.sendError(coded.code, coded.message, event);
  }

  /**
   * The connection's frames are handled one at a time, in the order they arrived: a frame waits until the one
   * before it has taken effect (authenticated, entered the world, been handled by the room). Only this
   * connection waits; the world and other connections go on. Once the socket is closing or closed, the frames
   * still waiting are dropped (the room's leave or reconnection logic takes over). Frames go through the
   * process' inbound slices first (src/sliced-queue.ts), so a burst read at once does not hold the event loop.
   */
  private enqueue(task: () => void | Promise<void>): void {
    this.services.inbound.push(() => void this.inbox.run(() => {
      if (!this.alive || this.socket.readyState !== WebSocket.OPEN) return;
      return task();
    }));
  }

  /** Routes one event; returns a promise only when it awaits (a join in progress, a handler that awaits, a hop). */
  private route(type: string, data: Record<string, unknown>): void | Promise<void> {
    if (type === 'authenticate') return this.onAuthenticate(data);
    if (!this.identity) {
      // The first message must be `authenticate` (docs/protocol.md): anything else ends the connection.
      this.sendError('AUTH_REQUIRED', 'The first message must be authenticate', type);
      return this.closeWith(WS_CLOSE.AUTH_FAILED, 'authentication required');
    }
    if (type === 'world:enter') return this.enterWorld(data);
    if (type === 'world:leave') return this.leaveWorld();
    if (this.worldJoin || this.linking) return this.routeAfterJoins(type, data);
    return this.dispatchToRoom(type, data);
  }

  /** Game events wait for a world join or a room link in progress (the room talks to the client during it). */
  private async routeAfterJoins(type: string, data: Record<string, unknown>): Promise<void> {
    if (this.worldJoin) await this.worldJoin.catch(() => {});
    if (this.linking) await this.linking;
    return this.dispatchToRoom(type, data);
  }

  private dispatchToRoom(type: string, data: Record<string, unknown>): void | Promise<void> {
    const target = this.linked?.room.handles(type) ? this.linked : this.world;
    if (!target) return this.sendError('NOT_IN_WORLD', 'Enter the world first (world:enter)', type);
    const handled = target.room.dispatch(target.client, type, data);
    return handled ? handled.then(() => this.carryOutApprovedHop()) : this.carryOutApprovedHop();
  }

  /** A hop the world approved while handling the event is carried out before the next event. */
  private carryOutApprovedHop(): void | Promise<void> {
    const approved = this.approvedHop;
    this.approvedHop = undefined;
    if (approved && this.world?.client === approved.client) return this.hopWorldNow(approved.hop);
  }

  /** The ClientLink's hopWorld: the world approved a `world:hop` of this connection's character (see route). */
  hopWorld(client: JsonClient, hop: WorldHop): void {
    if (this.world?.client === client) this.approvedHop = { client, hop };
  }

  private async onAuthenticate(data: Record<string, unknown>): Promise<void> {
    if (this.identity) return this.sendError('ALREADY_AUTHENTICATED', 'This connection is already authenticated', 'authenticate');
    // Absent: no token (anonymous mode creates an identity). Present, it must be a non-empty string.
    if ('token' in data && (typeof data.token !== 'string' || data.token.length === 0)) {
      return this.refuseAuthentication({ code: 'TOKEN_INVALID', message: '"token" must be a non-empty string (omit it for a temporary identity)' });
    }
    const token = data.token as string | undefined;
    let issued: SocketAuthentication['issuedToken'];
    try {
      const result = await this.services.authenticate(token, this.ip);
      this.identity = result.identity;
      issued = result.issuedToken;
      this.token = issued?.token ?? token;
    } catch (error) {
      return this.refuseAuthentication(this.services.toCodedError(error));
    }
    clearTimeout(this.authTimer);
    this.log.debug({ accountId: this.identity.accountId }, 'ws authenticated');
    this.sendEvent('authResult', {
      success: true,
      accountId: this.identity.accountId,
      ...(this.identity.characterId ? { characterId: this.identity.characterId } : {}),
      ...(issued ? { token: issued.token, expiresAt: issued.expiresAt.toISOString(), temporary: true } : {}),
    });
    if (typeof data.characterId === 'string' || typeof data.reconnectionToken === 'string') await this.enterWorld(data);
  }

  private refuseAuthentication(error: CodedError): void {
    this.log.debug({ code: error.code }, 'ws authentication refused');
    this.sendEvent('authResult', { success: false, error });
    this.closeWith(WS_CLOSE.AUTH_FAILED, 'authentication failed');
  }

  private async enterWorld(data: Record<string, unknown>): Promise<void> {
    if (this.leaving) await this.leaving;
    if (this.world || this.joining) return this.sendError('ALREADY_IN_WORLD', 'This connection is already in the world', 'world:enter');
    if (data.updates !== undefined && !isUpdateEncoding(data.updates)) {
      return this.sendError('INVALID_PAYLOAD', `"updates" must be one of ${UPDATE_ENCODINGS.join(', ')}`, 'world:enter');
    }
    const updates = data.updates ?? 'json';
    this.joining = true;
    const joined = this.enter(data, updates as UpdateEncoding);
    this.worldJoin = joined;
    try {
      this.settle(await joined);
    } finally {
      this.joining = false;
      if (this.worldJoin === joined) this.worldJoin = undefined;
    }
  }

  private entered(membership: RoomMembership): void {
    this.world = membership;
    this.sendEvent('world:joined', {
      roomId: membership.room.roomId,
      world: membership.room.worldNumber,
      sessionId: membership.client.sessionId,
      reconnectionToken: `${membership.room.roomId}:${membership.client.reconnectionToken}`,
    });
  }

  /**
   * Carries out an approved hop: a consented leave (the room saves the character and releases its world claim;
   * the entry below waits for that save through context.leaving), then an entry into the target world with the
   * same character and update encoding (enterAfterHop).
   */
  private async hopWorldNow(hop: WorldHop): Promise<void> {
    const current = this.world;
    if (!current) return;
    const from = current.room.worldNumber ?? 0;
    const updates = clientLink(current.client)?.updates ?? 'json';
    this.world = undefined;
    this.joining = true;
    try {
      this.leaving = new Promise<void>((resolve) => {
        this.leavingClient = { client: current.client, done: resolve, quiet: true };
      });
      current.client.ref.emit('message', Buffer.from([12 /* Protocol.LEAVE_ROOM */]));
      await this.leaving;
      await this.enterAfterHop(hop.characterId, hop.world, from, updates);
    } finally {
      this.joining = false;
    }
  }

  /**
   * The entry half of a hop, wherever the target world runs (this process, a hand-over, or — on a relayed socket —
   * a `relay:move` the entry process carries out): `world:joined` (the new world) and `world:hopped {from, to}`.
   * When the target refuses now (it filled up since the room checked), the character goes back to the world it
   * left, or to any world with room; the client gets `world:joined` for it and then the refusal (`error`, event
   * `world:hop`). If no world takes it (e.g. a second login of the character took it meanwhile), `world:left`.
   */
  private async enterAfterHop(characterId: string, to: number, from: number, updates: UpdateEncoding): Promise<void> {
    let refusal: unknown;
    for (const world of [to, from, undefined]) {
      if (!this.alive) return;
      try {
        const entry = await this.enter({ characterId, world }, updates, world === to ? from : undefined);
        if ('moved' in entry) {
          if (refusal === undefined) return;
          break;
        }
        this.settle(entry);
        if (world === to) this.sendEvent('world:hopped', { from, to });
        break;
      } catch (error) {
        refusal ??= error;
        if (error instanceof HandoverFailure) return;
        // Another login holds the character now: it is in the world there, not here.
        if (this.services.toCodedError(error).code === 'ALREADY_ONLINE') break;
      }
    }
    if (refusal !== undefined) {
      if (!this.world && !this.relay) this.sendEvent('world:left', {});
      const coded = this.services.toCodedError(refusal);
      this.log.info({ code: coded.code, from, to }, 'world hop refused by the target world');
      this.sendError(coded.code, coded.message, 'world:hop');
    }
  }

  /** Takes an entry's outcome: into the world here, or handed over (nothing to do when it was moved). */
  private settle(entry: Entry): void {
    if ('membership' in entry) {
      if (!this.alive) return entry.membership.client.disconnected();
      this.entered(entry.membership);
    } else if ('handover' in entry) {
      if (!this.alive) return entry.handover.clientClosed(WS_CLOSE.NORMAL, 'client gone');
      this.relay = entry.handover;
    }
  }

  /**
   * Enters the world the entry names or the server picks. Without the cluster, a seat here (joinOrCreate). With
   * it, the world is chosen first (its number: pickWorld when none is named) and, when it runs on another process,
   * the connection is handed over there (world-handover.ts) — or, on a socket an entry process relayed here, that
   * process is asked to do it (`relay:move`), so sockets are never relayed twice.
   */
  private async enter(data: Record<string, unknown>, updates: UpdateEncoding, hopFrom?: number): Promise<Entry> {
    const cluster = this.services.cluster;
    if (!cluster) return { membership: await this.joinHere(data, updates) };
    const picked = data.world === undefined && typeof data.reconnectionToken !== 'string';
    // Worlds the server picked that filled up before the seat (a listing counts seats once they are taken): the
    // next pick passes them over.
    const full = new Set<number>();
    for (let attempt = 0; ; attempt++) {
      const target = await this.worldProcess(data, full);
      try {
        return await this.enterAt(target, data, updates, hopFrom);
      } catch (error) {
        const world = target?.data.world;
        if (!picked || attempt >= MAX_PICKS || this.services.toCodedError(error).code !== 'WORLD_FULL' || typeof world !== 'number') throw error;
        full.add(world);
      }
    }
  }

  /** Enters `target` here, or hands the connection over to its process. */
  private async enterAt(target: { data: Record<string, unknown>; processId: string } | undefined, data: Record<string, unknown>, updates: UpdateEncoding, hopFrom: number | undefined): Promise<Entry> {
    const cluster = this.services.cluster!;
    const location = target && await cluster.locate(target.processId);
    if (!location) return { membership: await this.joinHere(target?.data ?? data, updates) };
    const { characterId, createCharacter, world, reconnectionToken } = target.data;
    const enter = { characterId, createCharacter, world, reconnectionToken, updates };
    if (this.relayed) {
      this.sendEvent(RELAY_MOVE_EVENT, { ...enter, ...(hopFrom !== undefined ? { from: hopFrom } : {}) });
      return { moved: true };
    }
    const handover = new WorldHandover({
      internalAddress: location.internalAddress, clientAddress: this.ip ?? '', secret: cluster.secret, token: this.token!, origin: this.origin,
    }, enter, {
      deliver: (text) => this.sendText(text, 'relayed'),
      move: (moved) => this.enqueue(() => this.moveTo(moved)),
      closed: (code, reason, lost) => {
        this.relay = undefined;
        if (lost) cluster.recover(location);
        this.closeWith(code, reason);
      },
    });
    try {
      await handover.ready;
    } catch (error) {
      if (error instanceof HandoverFailure) {
        if (error.unreachable) cluster.recover(location);
        this.closeWith(error.closeCode, error.message);
      }
      throw error;
    }
    return { handover };
  }

  /** The world an entry goes to and its process: the reconnection token's room, the named world, or a picked one. */
  private async worldProcess(data: Record<string, unknown>, full: ReadonlySet<number>): Promise<{ data: Record<string, unknown>; processId: string } | undefined> {
    if (typeof data.reconnectionToken === 'string') {
      const [room] = await matchMaker.query({ roomId: data.reconnectionToken.split(':')[0] });
      return room ? { data, processId: room.processId } : undefined;
    }
    const world = requestedWorld(data);
    const listing = world === undefined ? await pickWorld(full) : await findWorld(world);
    if (!listing) return undefined;
    return { data: { ...data, world: listing.metadata!.world }, processId: listing.processId };
  }

  /** The upstream asked this (entry) process to enter another world for the connection (world-handover.ts). */
  private async moveTo(data: Record<string, unknown>): Promise<void> {
    this.relay = undefined;
    const { from, ...entry } = data;
    const updates = isUpdateEncoding(entry.updates) ? entry.updates : 'json';
    if (typeof from === 'number' && typeof entry.world === 'number' && typeof entry.characterId === 'string') {
      this.joining = true;
      try {
        return await this.enterAfterHop(entry.characterId, entry.world, from, updates);
      } finally {
        this.joining = false;
      }
    }
    try {
      await this.enterWorld({ ...entry, updates });
    } catch (error) {
      const coded = this.services.toCodedError(error);
      this.sendError(coded.code, coded.message, 'world:enter');
    }
  }

  private joinHere(data: Record<string, unknown>, updates: UpdateEncoding): Promise<RoomMembership> {
    return typeof data.reconnectionToken === 'string' ? this.reconnect(data.reconnectionToken, updates) : this.join(data, updates);
  }

  private async join(data: Record<string, unknown>, updates: UpdateEncoding): Promise<RoomMembership> {
    const options = { characterId: data.characterId, createCharacter: data.createCharacter, world: data.world };
    const reservation = await reserveWorldSeat(options, this.authContext());
    const room = matchMaker.getLocalRoomById(reservation.roomId) as unknown as RoutableRoom;
    const client = new JsonClient(reservation.sessionId, this, updates);
    await connectClientToRoom(room as never, client, this.authContext(), JSON_JOIN);
    return { room, client };
  }

  /**
   * Takes the seat the room holds for a dropped connection of this account. The room decides (WorldRoom:
   * only a waiting seat, only for the same account); refusals without a code of their own — Colyseus' "room
   * disposed", "expired", "seat reservation expired" — all mean the token holds no seat.
   */
  private async reconnect(token: string, updates: UpdateEncoding): Promise<RoomMembership> {
    const [roomId, secret, ...rest] = token.split(':');
    if (!roomId || !secret || rest.length > 0) throw invalidReconnection('The reconnection token is malformed');
    try {
      const reservation = await matchMaker.reconnect(roomId, { reconnectionToken: secret });
      const room = matchMaker.getLocalRoomById(roomId) as unknown as RoutableRoom | undefined;
      if (!room) throw invalidReconnection();
      if (!room.sessionBelongsTo?.(reservation.sessionId, this.identity!.accountId)) {
        throw new GameError('FORBIDDEN', 'That session belongs to another account');
      }
      const client = new JsonClient(reservation.sessionId, this, updates);
      await connectClientToRoom(room as never, client, this.authContext(), { ...JSON_JOIN, reconnectionToken: secret });
      return { room, client };
    } catch (error) {
      if (this.services.toCodedError(error).code !== 'JOIN_FAILED') throw error;
      const room = matchMaker.getLocalRoomById(roomId) as unknown as RoutableRoom | undefined;
      if (room?.isConnectedWith?.(secret)) {
        // The token of a session that is still connected: it is not taken over (docs/protocol.md).
        throw new GameError('ALREADY_ONLINE', 'That character is connected; a reconnection token only serves a dropped connection');
      }
      throw invalidReconnection();
    }
  }

  /**
   * A consented leave: the room saves and ends the session without holding a reconnection seat. `world:left` is
   * sent once the room has finished (it lets the membership go), so entering again right after it succeeds.
   */
  private async leaveWorld(): Promise<void> {
    const world = this.world;
    if (!world) return this.sendError('NOT_IN_WORLD', 'Not in the world', 'world:leave');
    this.world = undefined;
    this.leaving = new Promise<void>((resolve) => {
      this.leavingClient = { client: world.client, done: resolve, quiet: false };
    });
    world.client.ref.emit('message', Buffer.from([12 /* Protocol.LEAVE_ROOM */]));
    await this.leaving;
  }

  private sendError(code: string, message: string, event?: string): void {
    this.sendEvent('error', { code, message, ...(event ? { event } : {}) });
  }

  private closeWith(code: number, reason: string): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(code, reason);
    }
  }

  private onClose(code: number, reason: string): void {
    this.log.debug('ws connection closed');
    this.alive = false;
    this.relay?.clientClosed(code, reason);
    this.relay = undefined;
    clearTimeout(this.authTimer);
    this.linked?.client.disconnected();
    this.world?.client.disconnected();
    this.linked = undefined;
    this.world = undefined;
  }
}
