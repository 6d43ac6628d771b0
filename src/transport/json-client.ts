/**
 * A /ws JSON connection's membership in one Colyseus room, shaped as a Colyseus `Client` so rooms treat SDK and
 * JSON players alike. Room messages (`client.send`) become JSON text frames; the binary protocol the room writes
 * (state patches) is not for this client and is dropped; its joins skip the schema handshake and the full state.
 * It carries the rooms' ClientLink (rooms/client-link.ts): how a room sends it a pre-serialised frame, and joins its
 * connection to another room.
 */
import { EventEmitter } from 'node:events';
import { ClientState, Protocol, type Client, type ClientPrivate, type ISendOptions } from '@colyseus/core';
import { markJoined } from '../colyseus-seams.ts';
import { CLIENT_LINK, type ClientLink, type TextFrame, type WorldHop } from '../../rooms/client-link.ts';
import type { UpdateEncoding } from '../../rooms/world/update-frames.ts';

export interface JsonChannel {
  readonly readyState: number;
  sendEvent(type: string, data: unknown): void;
  /** Sends a frame the room serialised itself (`event` names it for the outbound count; default world:update). */
  sendText(text: string, event?: string): void;
  /** Sends several serialised frames in one socket write. */
  sendTexts(frames: ReadonlyArray<TextFrame>): void;
  /** The room let this membership go (or threw it out) with a close code. */
  membershipEnded(client: JsonClient, code: number | undefined): void;
  /** Joins the connection to another room (see ClientLink.joinRoom); never rejects. */
  joinRoom(roomId: string): Promise<void>;
  /** Moves the connection to another world after the current event (see ClientLink.hopWorld). */
  hopWorld(client: JsonClient, request: WorldHop): void;
}

// The Client interface types messages per room; a JSON channel carries any of them.
/* eslint-disable @typescript-eslint/no-explicit-any */
export class JsonClient implements Client, ClientPrivate {
  declare '~messages': any;
  readonly ref = new EventEmitter();
  readonly sessionId: string;
  readonly channel: JsonChannel;
  readonly [CLIENT_LINK]: ClientLink;
  state: ClientState = ClientState.JOINING;
  reconnectionToken = '';
  userData: unknown;
  auth: unknown;
  readyState = 1;
  /** Colyseus' marker of a client not yet joined (unset once joined). */
  _enqueuedMessages: unknown[] | undefined = [];
  _joinedAt = 0;

  constructor(sessionId: string, channel: JsonChannel, updates: UpdateEncoding = 'json') {
    this.sessionId = sessionId;
    this.channel = channel;
    this[CLIENT_LINK] = {
      updates,
      sendText: (text, event) => channel.sendText(text, event),
      sendTexts: (frames) => channel.sendTexts(frames),
      joinRoom: (roomId) => channel.joinRoom(roomId),
      hopWorld: (request) => channel.hopWorld(this, request),
    };
  }

  send(type: any, message?: any, _options?: ISendOptions): void {
    this.channel.sendEvent(String(type), message ?? {});
  }

  sendBytes(): void {
    // Raw byte messages have no JSON form; rooms never send them to JSON clients.
  }

  raw(data: Uint8Array | Buffer): void {
    if (data[0] === Protocol.JOIN_ROOM && this.state === ClientState.JOINING) {
      // The join is complete. An SDK client would acknowledge it and get the encoded full state in return; this
      // client reads JSON events only, so it is marked joined here (what the room does on that acknowledgement).
      markJoined(this);
    }
  }

  enqueueRaw(data: Uint8Array | Buffer): void {
    this.raw(data);
  }

  error(): void {
    // Errors reach JSON clients as `error` events sent by the rooms and the adapter.
  }

  leave(code?: number): void {
    this.readyState = 3;
    // As an SDK socket's close would: a room calling leave() directly runs its leave logic on this event (a room
    // letting the client go itself has run it already and dropped the listener).
    this.ref.emit('close', code);
    this.channel.membershipEnded(this, code);
  }

  close(code?: number): void {
    this.leave(code);
  }

  /** The connection is gone: the room runs its leave (or reconnection) logic. */
  disconnected(): void {
    this.readyState = 3;
    this.ref.emit('close');
  }
}
