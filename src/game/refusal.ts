/**
 * The one refusal type below the edges: a stable upper-snake `code`, a message for people, and optional details.
 * Rules, stores and services throw it; each edge translates it once (rooms → `error` / `tradeError` event, http →
 * problem+json) with the shared code → status table. Throwing it from a message handler changes nothing.
 */
export class GameError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'GameError';
    this.code = code;
    this.details = details;
  }
}

/**
 * The one code → HTTP status table, shared by both edges: the http edge answers a refusal with this status
 * (problem+json, src/http/problem.ts), and a refused join carries it to Colyseus (rooms/game-error.ts). A code not
 * listed is a client fault: 400. In-world events carry no status, so codes only ever sent as `error` / `tradeError`
 * events need no row.
 */
const REFUSAL_STATUS: Readonly<Record<string, number>> = {
  // Authentication and authorization (src/auth/errors.ts)
  AUTH_REQUIRED: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  SESSION_REVOKED: 401,
  ACCOUNT_NOT_FOUND: 401,
  IDP_TOKEN_INVALID: 401,
  IDP_TOKEN_EXPIRED: 401,
  INSUFFICIENT_ROLE: 403,
  INSUFFICIENT_SCOPE: 403,
  IDP_NOT_CONFIGURED: 403,
  ANONYMOUS_MODE_DISABLED: 403,
  IDP_UNAVAILABLE: 503,
  AUTH_RATE_LIMITED: 429,
  // Characters and entering the world
  CHARACTER_NOT_FOUND: 404,
  CHARACTER_NOT_OWNED: 403,
  TEMPLATE_NOT_FOUND: 404,
  ALREADY_ONLINE: 409,
  // a join while the character lingers in the world it left during combat (docs/protocol.md)
  LEAVE_IN_COMBAT: 409,
  NAME_TAKEN: 409,
  CHARACTER_LIMIT: 409,
  CHARACTER_ONLINE: 409,
  CHARACTER_OFFLINE: 409,
  INVALID_NAME: 400,
  INVALID_REQUEST: 400,
  INVALID_PAYLOAD: 400,
  VALIDATION_FAILED: 400,
  WORLD_UNAVAILABLE: 503,
  // the database went away while an item transaction committed: it may or may not have (docs/scaling.md)
  OUTCOME_UNKNOWN: 503,
  WORLD_FULL: 409,
  // admission by health and the login queue (docs/worlds.md "When the server is full")
  WORLD_BUSY: 503,
  QUEUE_FULL: 503,
  QUEUED: 409,
  RATE_LIMITED: 429,
  // REST routes
  CHARACTER_REQUIRED: 400,
  NOT_IN_WORLD: 409,
  // a trade request to a player online in another world (trading.md)
  NOT_IN_YOUR_WORLD: 409,
  VOICE_NOT_CONFIGURED: 404,
  WORLD_NOT_FOUND: 404,
  CROSS_SITE_REFUSED: 403,
  MONITOR_METHOD_REFUSED: 403,
  // Rooms and matchmaking
  FORBIDDEN: 403,
  NOT_PARTICIPANT: 403,
  UNKNOWN_ROOM_TYPE: 404,
  ROOM_NOT_FOUND: 404,
  ROOM_LOCKED: 409,
  RECONNECTION_EXPIRED: 410,
  // AI agents
  AGENT_NOT_FOUND: 404,
  AGENT_NOT_OWNED: 403,
  AGENT_REVOKED: 404,
  AGENT_ALREADY_REGISTERED: 409,
  GOAL_NOT_FOUND: 404,
  // a goal naming an unknown manifest id (src/agents/goals.ts)
  AREA_NOT_FOUND: 404,
  ITEM_NOT_GATHERABLE: 404,
  NPC_NOT_FOUND: 404,
  // a goal the character cannot pursue now (src/agents/goal-menu.ts GOAL_REFUSAL_CODES)
  SKILL_NOT_TRAINABLE: 409,
  TARGET_LEVEL_REACHED: 409,
  NO_TOOL: 409,
  LEVEL_TOO_LOW: 409,
  MISSING_ITEMS: 409,
  INVENTORY_FULL: 409,
  NPC_NOT_ATTACKABLE: 409,
  NOTHING_TO_BANK: 409,
  GOAL_UNAVAILABLE: 409,
  AGENT_SERVICE_BAD_RESPONSE: 502,
  AGENT_SERVICE_UNAVAILABLE: 503,
  // The server's own faults
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** The HTTP status a refusal with this code is answered with (400 for a code the table does not list). */
export function refusalStatus(code: string): number {
  return Object.hasOwn(REFUSAL_STATUS, code) ? REFUSAL_STATUS[code] : 400;
}

/** Every code the status table lists (each has its row in docs/errors.md, the page a problem's `type` names). */
export const REFUSAL_CODES: readonly string[] = Object.freeze(Object.keys(REFUSAL_STATUS));
