/**
 * The port world membership needs from a transport whose clients are not SDK sockets (the /ws JSON adapter
 * implements it: src/transport/json-connection.ts). Rooms declare it and never import a transport: membership
 * (membership.ts) talks to the client, closes it and hands it over to another process only through this.
 */
import type { AuthContext, Client, ClientPrivate } from '@colyseus/core';
import type { ProcessLocation } from '../../src/cluster/cluster.ts';
import type { Logger } from '../../src/logger.ts';
import type { UpdateEncoding } from '../world/update-frames.ts';

/** A refusal carrying a stable code, from authentication or from the matchmaker/room. */
export interface CodedError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A connection's client in a room; `disconnected()` tells the room the socket is gone (it may hold a seat). */
export type ConnectionClient = Client & ClientPrivate & { disconnected(): void };

export interface MembershipTransport {
  /** Logs with the connection's id. */
  readonly log: Logger;
  /** Whether the socket is still open (a membership that completes after it closed is let go at once). */
  readonly open: boolean;
  sendEvent(type: string, data: unknown): void;
  sendError(code: string, message: string, event?: string, details?: Record<string, unknown>): void;
  /** Closes the client's socket with a close code (src/close-codes.ts). */
  close(code: number, reason: string): void;
  /** A Colyseus client that stands for this connection in a room of this process. */
  roomClient(sessionId: string, updates?: UpdateEncoding): ConnectionClient;
  /** A room threw the connection out with this Colyseus close code: the socket closes with the matching code. */
  thrownOut(colyseusCode: number | undefined): void;
  /** The connection's credentials as a join's auth context (its verified identity attached), plus server-only marks. */
  authContext(marks?: Record<symbol, unknown>): AuthContext;
  /** Runs a task in the connection's order, after the frame being handled. */
  enqueue(task: () => void | Promise<void>): void;
  /** Any thrown value as a coded error. */
  toCodedError(error: unknown): CodedError;
  /** Scale-out: reaching worlds on other processes. Undefined on a single process. */
  readonly handover?: HandoverPort;
}

/** The transport's side of a hand-over (docs/scaling.md "/ws hand-over"). */
export interface HandoverPort {
  /** The socket was relayed here by an entry process: a world elsewhere is reached by asking it to move (relay:move). */
  readonly relayed: boolean;
  /** The process' internal address when it is another process. */
  locate(processId: string): Promise<ProcessLocation | undefined>;
  /**
   * Opens the hand-over to `location`, sending it the entry `enter`; resolves once the world there answered
   * `world:joined` (already delivered to the client), rejects with the entry's refusal or a HandoverFailure (the
   * transport has then closed the client's socket with the failure's code).
   */
  open(location: ProcessLocation, enter: Record<string, unknown>, events: RelayEvents, admitted: boolean): Promise<Relay>;
  /** Asks the entry process to enter another world for this relayed socket (relay:move). */
  requestMove(data: Record<string, unknown>): void;
}

/** A hand-over in place: the client's frames go to the world's process. */
export interface Relay {
  forward(text: string): void;
  /** The client went away: the upstream closes with the client's code. */
  clientClosed(code: number, reason: string): void;
}

export interface RelayEvents {
  /** The upstream asked for a move (relay:move); the hand-over has ended. */
  move(data: Record<string, unknown>): void;
  /** The upstream closed after the entry; `lost` when it vanished. The transport has closed the client's socket. */
  closed(lost: boolean): void;
}

/** The world's process could not be reached, or refused the socket itself. */
export class HandoverFailure extends Error {
  readonly closeCode: number;
  readonly unreachable: boolean;

  constructor(message: string, closeCode: number, unreachable: boolean) {
    super(message);
    this.closeCode = closeCode;
    this.unreachable = unreachable;
  }
}

/** The encoding a JSON connection asked for, carried by a seat's client (rooms/client-link.ts). */
export type { UpdateEncoding };
