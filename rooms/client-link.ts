/**
 * The rooms' port to a transport other than the Colyseus SDK protocol. Rooms declare it and never import a
 * transport; a transport whose clients are not SDK sockets (the /ws JSON adapter, src/transport/json-client.ts) puts
 * a ClientLink on each Client object it hands the rooms. An SDK client has none: it reads the schema state, the room
 * limits and counts its messages, and it joins other rooms itself (e.g. a TradeRoom by the roomId of `tradeStarted`).
 */
import { enqueueClientRaw, getMessageBytes, Protocol, type Client, type ClientPrivate } from '@colyseus/core';
import { gameContext } from '../src/context.ts';
import type { UpdateEncoding } from './world/update-frames.ts';

export interface ClientLink {
  /** The `world:update` encoding the client asked for (docs/protocol.md). */
  readonly updates: UpdateEncoding;
  /**
   * Sends a frame the room serialised itself (e.g. `world:update` assembled from per-tick JSON). The client reads
   * JSON events only: it gets no schema state or view, and its connection limits and counts its own messages.
   */
  sendText(text: string, event?: string): void;
  /** Sends several such frames in one socket write (a tick's queued events and its world:update). */
  sendTexts(frames: ReadonlyArray<TextFrame>): void;
  /**
   * Joins the client's connection to another room of this process (a trade room) and resolves once it is in, so
   * that whatever the room sends reaches it and the events it sends next are routed there. Never rejects: a join
   * that fails is logged by the transport, and the connection stays where it was.
   */
  joinRoom(roomId: string): Promise<void>;
  /**
   * Moves the client's connection to another world once the event being handled is done, before its next event:
   * the room approved a `world:hop` (rooms/world/features/hop.ts) and the transport leaves this world (a consented
   * leave, which saves) and enters `world` with the character. Returns at once; the transport tells the client.
   */
  hopWorld(request: WorldHop): void;
}

/** An approved world hop: the character and the world it moves to. */
export interface WorldHop {
  characterId: string;
  world: number;
}

/** A frame serialised by the room and the event it carries (for the transport's outbound count). */
export interface TextFrame {
  text: string;
  event: string;
}

/** Where a transport puts its link on a Client. A symbol: no room state or client option can set it. */
export const CLIENT_LINK = Symbol('clientLink');

type LinkedClient = Client & { [CLIENT_LINK]?: ClientLink };

/** The client's link, or undefined for an SDK client. */
export function clientLink(client: Client): ClientLink | undefined {
  return (client as LinkedClient)[CLIENT_LINK];
}

/** Whether the client came through a linked transport (JSON events only) rather than the SDK protocol. */
export function isLinkedClient(client: Client): boolean {
  return clientLink(client) !== undefined;
}

const AFTER_NEXT_PATCH = Object.freeze({ afterNextPatch: true });

/**
 * Sends one event to many clients, serialising it once for all the linked ones (as `{"type","data"}`, the /ws
 * envelope) and once for all the SDK ones (Colyseus' room message bytes) instead of once per recipient.
 */
export class SharedEvent {
  private text: string | undefined;
  private bytes: Buffer | undefined;
  private readonly type: string;
  private readonly data: unknown;

  constructor(type: string, data: unknown) {
    this.type = type;
    this.data = data;
  }

  sendTo(client: Client): void {
    const link = clientLink(client);
    if (!link) return this.sendSdk(client);
    link.sendText(this.frame().text, this.type);
  }

  /**
   * Stages the event for an SDK client to follow the room's next state patch (Colyseus' `afterNextPatch`; the world's
   * patch serializer writes it with the patch frame, in one socket write: src/shared-view-patches.ts).
   */
  sendAfterPatch(client: Client): void {
    this.sendSdk(client, AFTER_NEXT_PATCH);
  }

  /** What `client.send` does, with the bytes encoded once; counted as GameRoom.countSends counts `client.send`. */
  private sendSdk(client: Client, options?: typeof AFTER_NEXT_PATCH): void {
    this.bytes ??= getMessageBytes.raw(Protocol.ROOM_DATA, this.type, this.data);
    enqueueClientRaw(client as Client & ClientPrivate, this.bytes, options);
    gameContext().metrics.countOutbound(this.type);
  }

  /** The event as a /ws frame (serialised on first use). */
  frame(): TextFrame {
    return { text: (this.text ??= JSON.stringify({ type: this.type, data: this.data ?? {} })), event: this.type };
  }
}

/**
 * Joins a linked client's connection to the room `roomId` (call it before telling the client about the room, so
 * the room's first events and the client's next actions reach the room). Nothing to do for an SDK client.
 */
export async function linkClient(client: Client, roomId: string): Promise<void> {
  await clientLink(client)?.joinRoom(roomId);
}
