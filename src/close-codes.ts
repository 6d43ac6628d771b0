/**
 * Every WebSocket close code the server sends, in one place (docs/protocol.md "Close codes"). Below the edges: the
 * transport (/ws sockets, the scale-out relay) and the rooms (Colyseus sockets) import it; it imports nothing.
 */

/** RFC 6455 codes, and the /ws range of the game's own (4000–4999). */
export const WS_CLOSE = {
  NORMAL: 1000,
  UNSUPPORTED_DATA: 1003,
  /** Policy violation: a client that keeps flooding, or a relay overrun before its upstream opened. */
  POLICY_VIOLATION: 1008,
  /** A frame larger than the transport's limit (`ws` closes with it itself). */
  MESSAGE_TOO_BIG: 1009,
  INTERNAL_ERROR: 1011,
  /** Server shutdown, or the world moved to another process: reconnect. */
  SERVICE_RESTART: 1012,
  /** The server could not reach its database to authenticate the socket: try again later (nothing was wrong with the token). */
  TRY_AGAIN_LATER: 1013,
  /** /ws: authentication failed, timed out, or the session's rights ended. */
  AUTH_FAILED: 4001,
  /** The world's process lost its lease on the world (docs/scaling.md): enter again, through any process. */
  WORLD_LOST: 4012,
} as const;

/** Codes a peer may not send itself (no status 1005, abnormal closure 1006, TLS failure 1015). */
export const UNSENDABLE_CLOSE_CODES: ReadonlySet<number> = new Set([1005, 1006, 1015]);

/**
 * Codes rooms close Colyseus clients with, besides Colyseus' own `CloseCode` (CONSENTED 4000, SERVER_SHUTDOWN 4001,
 * WITH_ERROR 4002). The /ws adapter maps each to a /ws code (src/transport/json-connection.ts).
 */
export const ROOM_CLOSE = {
  /** A client that keeps flooding the room with messages (policy violation). */
  FLOOD: WS_CLOSE.POLICY_VIOLATION,
  /** A world session whose rights ended (token expired or revoked, account deleted, role lost): 4001 on /ws. */
  SESSION_ENDED: 4401,
  /** The world's process lost its lease on the world: 4012 on /ws as well. */
  WORLD_LOST: WS_CLOSE.WORLD_LOST,
} as const;
