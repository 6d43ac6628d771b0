/**
 * The server's Colyseus transport: the ws transport for the SDK protocol, plus ownership of the `/ws` upgrade,
 * where JSON clients connect. Every upgrade passes the origin check first; `/ws` may also carry an
 * `Authorization: Bearer` header (non-browser clients). Tokens never travel in the URL.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { CloseCode, createAuthContext, ErrorCode, getMessageBytes, matchMaker, Protocol } from '@colyseus/core';
import { WebSocketTransport, type TransportOptions } from '@colyseus/ws-transport';
import { admitResumingSocket, resumingSocketOf } from '../../rooms/entry/resuming-socket.ts';
import { WebSocket, WebSocketServer } from 'ws';
import type { Cluster } from '../cluster/cluster.ts';
import { HANDOVER_TICKET_HEADER, HandoverTickets, relayedAddress, type HandoverTicket } from '../cluster/ws-relay.ts';
import type { ConnectionCaps, ConnectionTicket } from './connection-caps.ts';
import { WS_CLOSE } from '../close-codes.ts';
import { isDatabaseUnreachable } from '../db/unreachable.ts';
import { sdkSocketServer } from '../colyseus-seams.ts';
import type { Identity } from '../auth/tokens.ts';
import { JsonConnection, type ConnectionServices } from './json-connection.ts';
import { clientAddressOf } from './socket-address.ts';
import { settledWithin } from '../settled-within.ts';

export const JSON_WS_PATH = '/ws';
/** Frames over this size close the connection with 1009. */
export const MAX_FRAME_BYTES = 4 * 1024;
const HEARTBEAT_MS = 15_000;
/** How long shutdown waits for the clients' answers to the close frames before cutting the remaining sockets. */
export const SHUTDOWN_CLOSE_WAIT_MS = 2_000;

export interface GameTransportOptions {
  server: HttpServer;
  /** The connections' services, with the process' inbound queue (shared with the rooms' SDK messages). */
  services: ConnectionServices;
  /** False refuses the upgrade with 403 (disallowed Origin). */
  originAllowed(origin: string | undefined): boolean;
  /** Scale-out: a /ws connection entering a world that runs on another process is handed over to it. */
  cluster?: { cluster: Cluster; relaySecret: string | undefined };
  /** Per-address connection caps (connection-caps.ts), checked before every handshake. */
  caps?: ConnectionCaps;
}

/**
 * Answers a refused upgrade and gives its socket back once the answer is written. `end()` alone only half-closes
 * it: the HTTP server allows half-open sockets, so the socket, its descriptor and (after admission) its place under
 * the per-address cap stayed until the client closed its side, which a flooding client need never do
 * (docs/BENCHMARKS.md, "Descriptors under an upgrade flood").
 */
function refuse(socket: Duplex, status: number, reason: string): void {
  if (socket.destroyed) return;
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

type Alive = WebSocket & { isAlive?: boolean };

/** Accepts /ws upgrades into JSON connections. */
class JsonEndpoint {
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  private readonly heartbeat: NodeJS.Timeout;
  private readonly services: ConnectionServices;
  private readonly cluster: GameTransportOptions['cluster'];

  constructor(services: ConnectionServices, cluster: GameTransportOptions['cluster']) {
    this.cluster = cluster;
    this.services = cluster ? {
      ...services,
      cluster: {
        secret: cluster.relaySecret,
        locate: (processId) => cluster.cluster.locate(processId),
        recover: (location) => void cluster.cluster.recoverProcess(location).catch((error: unknown) =>
          services.logger.error({ err: error }, 'could not recover from a lost process')),
      },
    } : services;
    this.heartbeat = setInterval(() => {
      for (const socket of this.wss.clients as Set<Alive>) {
        if (socket.isAlive === false) {
          socket.terminate();
          continue;
        }
        socket.isAlive = false;
        socket.ping();
      }
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * `handover`: relayed by an entry process with a verified hand-over ticket (it enters a world here, or asks that
   * process to move it); its token must be of the ticket's account.
   */
  async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, ticket?: ConnectionTicket, handover?: HandoverTicket): Promise<void> {
    const token = bearerToken(request);
    if (handover && !token) return refuse(socket, 401, 'Unauthorized');
    let preauthorized: { token: string; identity: Identity } | undefined;
    if (token) {
      try {
        const { identity } = await this.services.authenticate(token, clientAddressOf(request));
        if (handover && identity.accountId !== handover.accountId) return refuse(socket, 401, 'Unauthorized');
        preauthorized = { token, identity };
        ticket?.authenticated();
      } catch (error) {
        // A database that cannot be reached refused nothing: 503, not 401 (docs/protocol.md).
        return isDatabaseUnreachable(error) ? refuse(socket, 503, 'Service Unavailable') : refuse(socket, 401, 'Unauthorized');
      }
    }
    // A connection stops counting as unauthenticated once its `authenticate` succeeds.
    const services: ConnectionServices = ticket && !preauthorized
      ? { ...this.services, authenticate: async (t, address) => {
        const result = await this.services.authenticate(t, address);
        ticket.authenticated();
        return result;
      } }
      : this.services;
    // The handshake (the larger part of an upgrade's cost) waits its turn in the inbound queue, behind the frames of the
    // players in a world: a storm of thousands of sockets opened at once is then accepted as a stream. A socket a
    // process relayed here belongs to a player moving in, and goes before new logins.
    this.services.inbound.push(() => {
      if (socket.destroyed) return;
      this.wss.handleUpgrade(request, socket, head, (ws: Alive) => {
        ws.isAlive = true;
        ws.on('pong', () => (ws.isAlive = true));
        new JsonConnection(ws, request, services, preauthorized, handover && { admitted: handover.admitted === true });
      });
    }, handover ? 'entries' : 'others');
  }

  /**
   * Shutdown: every socket still open gets a 1012 close frame (those a room already closed keep theirs), and the
   * endpoint waits for the close handshakes — at most SHUTDOWN_CLOSE_WAIT_MS — before cutting what is left.
   * Terminating at once would drop the frames still queued on the sockets: the clients would see 1006.
   */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    const sockets = [...this.wss.clients];
    const closed = sockets.map((socket) => new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) return resolve();
      socket.once('close', () => resolve());
      if (socket.readyState === WebSocket.OPEN) socket.close(WS_CLOSE.SERVICE_RESTART, 'server shutdown');
    }));
    await settledWithin(Promise.all(closed), SHUTDOWN_CLOSE_WAIT_MS);
    for (const socket of sockets) if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
    this.wss.close();
  }
}

/** The server's transport; `socketsClosed()` resolves once shutdown has closed every /ws socket. */
export type GameTransport = WebSocketTransport & { socketsClosed(): Promise<void> };

export function createGameTransport(options: GameTransportOptions): GameTransport {
  const json = new JsonEndpoint(options.services, options.cluster);
  const isJsonPath = (request: IncomingMessage) => (request.url ?? '').split('?')[0] === JSON_WS_PATH;

  // Every upgrade is handled by the listener below; the ws transport's own listener is told to skip them all.
  const transportOptions: TransportOptions = { noServer: true, maxPayload: MAX_FRAME_BYTES };
  const transport = new WebSocketTransport(transportOptions) as GameTransport;
  // SDK room sockets: what the ws transport's own upgrade listener does (no beforeUpgrade is configured), done here
  // once the connection caps (an await: Redis) and, for a socket presenting a held seat, the world (an await: its
  // token) have admitted it. A refused seat is answered as Colyseus answers a refused join: an ERROR frame, then the
  // close code of a failed reconnection.
  const sdkServer = sdkSocketServer(transport);
  const sdkUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    sdkServer.handleUpgrade(request, socket, head, (ws) => sdkServer.emit('connection', ws, request));
  const sdkRefusal = (request: IncomingMessage, socket: Duplex, head: Buffer, error: { code?: unknown; message?: unknown }) =>
    sdkServer.handleUpgrade(request, socket, head, (ws) => {
      ws.send(getMessageBytes[Protocol.ERROR](typeof error.code === 'number' ? error.code : ErrorCode.MATCHMAKE_UNHANDLED, String(error.message ?? '')));
      ws.close(CloseCode.FAILED_TO_RECONNECT);
    });
  const sdkConnect = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const resuming = resumingSocketOf(request.url);
    if (!resuming) return sdkUpgrade(request, socket, head);
    const context = createAuthContext({ headers: request.headers as Record<string, string>, remoteAddress: request.socket.remoteAddress });
    void admitResumingSocket(resuming, context).then(
      () => (socket.destroyed ? undefined : sdkUpgrade(request, socket, head)),
      (error: unknown) => (socket.destroyed ? undefined : sdkRefusal(request, socket, head, error as { code?: unknown; message?: unknown })),
    );
  };
  const caps = options.caps;

  // A /ws socket relayed by another process carries a hand-over ticket (ws-relay.ts): believed once, if it is for
  // this process and fresh; any other ticket refuses the upgrade (a captured hand-over cannot be replayed).
  const tickets = options.cluster?.relaySecret ? new HandoverTickets(options.cluster.relaySecret, () => matchMaker.processId) : undefined;
  options.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Until ws takes the socket over, an error on it (the client went away) only ends it.
    socket.on('error', () => socket.destroy());
    if (!options.originAllowed(request.headers.origin)) return refuse(socket, 403, 'Forbidden');
    const isJson = isJsonPath(request);
    const presented = request.headers[HANDOVER_TICKET_HEADER];
    const handover = typeof presented === 'string' && isJson ? tickets?.verify(presented) : undefined;
    if (presented !== undefined && isJson && !handover) return refuse(socket, 401, 'Unauthorized');
    const relayed = isJson ? handover !== undefined : options.cluster !== undefined && relayedAddress(request, options.cluster.relaySecret) !== undefined;
    if (!caps || (relayed && !isJson)) {
      if (isJson) void json.upgrade(request, socket, head, undefined, handover).catch(() => socket.destroy());
      else sdkConnect(request, socket, head);
      return;
    }
    // A /ws socket another process relayed here was counted toward the total where the client connected; here it
    // counts as unauthenticated until it authenticates (this process runs its authentication window).
    const admitted = relayed ? caps.admitRelayed(clientAddressOf(request)) : caps.admit(clientAddressOf(request), !isJson);
    void admitted.then((admission) => {
      if (!admission.ok) return refuse(socket, 429, 'Too Many Requests');
      if (socket.destroyed) return admission.ticket.release();
      socket.once('close', () => admission.ticket.release());
      if (isJson) return json.upgrade(request, socket, head, admission.ticket, handover);
      sdkConnect(request, socket, head);
    }).catch(() => socket.destroy());
  });

  transport.attachToServer(options.server, { filter: () => false });
  const shutdown = transport.shutdown.bind(transport);
  let jsonClosed: Promise<void> | undefined;
  // Colyseus calls shutdown() without awaiting it; the server's close() awaits socketsClosed().
  transport.shutdown = () => {
    jsonClosed ??= json.close();
    shutdown();
    options.server.close();
  };
  transport.socketsClosed = () => jsonClosed ?? Promise.resolve();
  return transport;
}
