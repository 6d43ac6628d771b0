/**
 * The client events a /ws connection handles outside the world's message table (docs/protocol.md): authentication,
 * here in the transport, and entering or leaving the world, which go to the connection's world membership
 * (rooms/entry/membership.ts). Every other event is a room's (rooms/world/areas.ts, the trade room's actions); the
 * architecture test checks that together they are exactly the events the protocol lists, each handled once.
 */
export const CONNECTION_EVENTS = ['authenticate', 'world:enter', 'world:leave'] as const;

export type ConnectionEvent = (typeof CONNECTION_EVENTS)[number];
