/**
 * The private API of Colyseus and of `ws` that the server still needs, in one place (issue #33): everything else
 * goes through their public hooks. Each seam says why it is needed; test/architecture/colyseus-seams.test.ts checks
 * each against the installed versions and fails loudly when an upgrade changes one. The schema encoder's internals
 * that the world's patch serializer reads are in src/shared-view-patches.ts, which says why; the schema version is
 * pinned here with the others.
 */
import { ClientState, type Client, type ClientPrivate } from '@colyseus/core';
import type { WebSocketTransport } from '@colyseus/ws-transport';
import type { WebSocket, WebSocketServer } from 'ws';

/** The versions these seams were written against (package.json pins them). */
export const SEAM_VERSIONS = { '@colyseus/core': '0.18.17', '@colyseus/schema': '5.0.34', '@colyseus/ws-transport': '0.18.4', ws: '8.23.0' } as const;

/**
 * The ws transport's own WebSocketServer (`wss`, private). SDK room sockets must pass the per-address connection
 * caps, which need an await (Redis), before their handshake; the transport's upgrade listener cannot wait, so the
 * server completes those upgrades itself on this server (src/transport/game-transport.ts).
 */
export function sdkSocketServer(transport: WebSocketTransport): WebSocketServer {
  const wss = (transport as unknown as { wss?: WebSocketServer }).wss;
  if (!wss) throw new Error('@colyseus/ws-transport no longer keeps its WebSocketServer in `wss`: see src/colyseus-seams.ts');
  return wss;
}

/**
 * Marks a client of a transport of our own as joined, as a room does when an SDK client acknowledges its join:
 * `_enqueuedMessages` (ClientPrivate) set means "not joined yet", and `allowReconnection` refuses such a client a
 * seat. A /ws JSON client never acknowledges (it reads no binary protocol), so the JSON transport marks it when the
 * room sends JOIN_ROOM (src/transport/json-client.ts).
 */
export function markJoined(client: Client & ClientPrivate): void {
  client.state = ClientState.JOINED;
  client._enqueuedMessages = undefined;
}

/**
 * The TCP socket under a `ws` WebSocket (`_socket`, private), corked around several frames so the kernel gets one
 * write for a tick's frames instead of one per frame (src/transport/json-connection.ts `sendTexts`).
 */
export function rawSocketOf(socket: WebSocket): { cork(): void; uncork(): void } | undefined {
  return (socket as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
}
