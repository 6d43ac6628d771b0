/**
 * Hostile input for the server, as fast-check arbitraries: /ws frames (wrong types, huge and non-finite numbers,
 * deep nesting, prototype-pollution keys, odd unicode, oversize) and REST requests (methods, paths, bodies).
 * Used by the short fuzz test in CI and by `npm run fuzz` for long runs.
 */
import fc from 'fast-check';

/** Client events the server knows, so fuzzed payloads reach real handlers and not only the unknown-event path. */
export const KNOWN_EVENTS = [
  'authenticate', 'world:enter', 'world:leave', 'player:move', 'player:chat', 'player:action', 'player:homeTeleport',
  'inventory:use', 'inventory:move', 'inventory:drop', 'groundItem:pickup', 'bank:open', 'bank:deposit',
  'bank:depositAll', 'bank:withdraw', 'bank:depositEquipment', 'equipment:equip', 'equipment:unequip', 'shop:open',
  'shop:buy', 'shop:sell', 'gravestone:claim', 'tradeRequest', 'tradeRequestRespond', 'tradeAddItem',
  'tradeRemoveItem', 'tradeAccept', 'tradeCancel', 'bank:tab:create', 'bank:tab:delete', 'bank:tab:move',
  'bank:tab:rename', 'chat:private', 'friend:request', 'friend:accept', 'friend:decline', 'friend:remove', 'ignore:add',
  'ignore:remove', 'skills:get', 'npc:talk', 'dialogue:choose', 'dialogue:continue', 'dialogue:close', 'quest:get',
  'prayer:activate', 'prayer:deactivate', 'prayer:get',
];

const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

const hostileNumber = fc.oneof(
  fc.integer(), fc.double(), fc.constantFrom(0, -0, -1, 0.5, 1.5, 27, 28, -2147483648, 2147483647, 2147483648, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2),
);
const hostileString = fc.oneof(
  fc.string(), fc.string({ unit: 'binary', maxLength: 64 }), fc.constantFrom('', ' ', '\u0000', '\u202e', '/admin', 'NaN', 'Infinity', '💥'.repeat(50)),
);
const hostileScalar = fc.oneof(hostileNumber, hostileString, fc.boolean(), fc.constant(null));

/** A JSON value with polluting keys and deep nesting mixed in. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, hostileScalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...POLLUTING_KEYS, 'x', 'z', 'slot', 'quantity', 'itemId', 'tradeId', 'token')), tie('value'), { maxKeys: 6 }),
})).value;

function deeplyNested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A text frame as sent on the wire (JSON.stringify turns NaN/Infinity into null, so raw texts add those). */
export const hostileFrame: fc.Arbitrary<string> = fc.oneof(
  fc.record({ type: fc.constantFrom(...KNOWN_EVENTS), data: hostileValue }).map((frame) => JSON.stringify(frame)),
  fc.record({ type: hostileValue, data: hostileValue }).map((frame) => JSON.stringify(frame)),
  fc.constantFrom(...KNOWN_EVENTS).map((type) => `{"type":"${type}","data":{"x":NaN,"z":Infinity,"slot":-Infinity}}`),
  fc.constantFrom(...KNOWN_EVENTS).map((type) => `{"type":"${type}","data":{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}}`),
  fc.integer({ min: 10, max: 400 }).map((depth) => `{"type":"player:chat","data":${deeplyNested(depth)}}`),
  fc.string({ maxLength: 40 }),
  fc.constant('{"type": "player:move", '),
  // Over the 4 KB frame limit: the server closes with 1009 and the fuzzer reconnects.
  fc.integer({ min: 4200, max: 9000 }).map((size) => JSON.stringify({ type: 'player:chat', data: { message: 'x'.repeat(size) } })),
);

export interface HostileRequest {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
}

const API_PATHS = [
  '/api/v1/player', '/api/v1/world', '/api/v1/world/areas', '/api/data/skill-unlocks', '/api/auth/anonymous',
  '/api/auth/exchange', '/api/auth/refresh', '/api/auth/character-token', '/api/auth/me', '/api/character',
  '/api/characters/x/skills', '/api/characters/%00/position', '/api/agents/1/goal', '/api/agents/mapping/1',
  '/api/player/inventory', '/api/template', '/api/agent', '/manifests/items/food.json', '/manifests/..%2fpackage.json',
  '/health', '/status', '/env.js', '/matchmake/joinOrCreate/world', '/matchmake/create/trade',
];

export const hostileRequest: fc.Arbitrary<HostileRequest> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
  path: fc.oneof(fc.constantFrom(...API_PATHS), fc.constantFrom(...API_PATHS).chain((p) => fc.string({ maxLength: 12 }).map((s) => `${p}/${encodeURIComponent(s)}`))),
  body: fc.option(fc.oneof(hostileValue.map((v) => JSON.stringify(v) ?? 'null'), fc.string({ maxLength: 60 })), { nil: undefined }),
  contentType: fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16'), { nil: undefined }),
});
