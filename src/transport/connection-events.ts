/**
 * The client events the /ws connection handles itself, before any room: authentication and entering or leaving
 * the world (docs/protocol.md). Every other event is a room's (rooms/world/areas.ts, the trade room's actions); the
 * architecture test checks that together they are exactly the events the protocol lists, each handled once.
 */
export const CONNECTION_EVENTS = ['authenticate', 'world:enter', 'world:leave'] as const;

export type ConnectionEvent = (typeof CONNECTION_EVENTS)[number];
