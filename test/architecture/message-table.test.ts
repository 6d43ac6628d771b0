/**
 * One message table: every client event of the spec and of docs/protocol.md is handled, each by exactly one
 * area (or, for the /ws connection events, by the transport), and docs/architecture.md's event index is the one
 * the table generates.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WORLD_AREAS } from '../../rooms/world/areas.ts';
import { combineAreas } from '../../rooms/world/message-table.ts';
import { on, defineArea } from '../../rooms/world/area.ts';
import { ARCHITECTURE_DOC, areaModules, renderEventIndex, withEventIndex, withGeneratedBlocks } from '../../src/tools/architecture-docs.ts';
import { TRADE_ROOM_MESSAGES } from '../../rooms/trade/messages.ts';
import { CONNECTION_EVENTS } from '../../src/transport/connection-events.ts';
import { z } from 'zod';
import { PROJECT_ROOT } from '../helpers/process.ts';

function tableEvents(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(heading);
  assert.ok(start >= 0, `the heading "${heading}"`);
  const rows: string[] = [];
  for (const line of markdown.slice(start).split('\n').slice(1)) {
    if (line.startsWith('#')) break;
    const cell = /^\| `?([A-Za-z][\w:]*)`? \|/.exec(line);
    if (cell && cell[1] !== 'Event') rows.push(cell[1]);
  }
  return rows;
}

const read = (file: string) => fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
const world = combineAreas(WORLD_AREAS);
const worldEvents = [...world.messages.keys()];

describe('architecture: the message table', () => {
  it('every client event of the spec is handled', () => {
    const spec = tableEvents(read('docs/game-server-interface.md'), '### Client to server');
    assert.ok(spec.length >= 12, 'the spec lists its client events');
    assert.deepEqual(spec.filter((event) => !world.messages.has(event)), []);
  });

  it('handles exactly the events docs/protocol.md lists, each once: world areas plus the /ws connection events', () => {
    const documented = tableEvents(read('docs/protocol.md'), '### Every client event');
    assert.equal(new Set(documented).size, documented.length, 'no event listed twice in the doc');
    const handled = [...worldEvents, ...CONNECTION_EVENTS];
    assert.equal(new Set(handled).size, handled.length, 'the transport handles none of the rooms\' events');
    assert.deepEqual([...handled].sort(), [...documented].sort());
  });

  it('no event is declared by two areas (the table refuses the second)', () => {
    const declared = WORLD_AREAS.reduce((sum, area) => sum + Object.keys(area.messages).length, 0);
    assert.equal(declared, world.messages.size);
    const a = defineArea({ name: 'a', messages: { 'x:y': on(z.object({}), () => {}) }, sends: [] });
    const b = defineArea({ name: 'b', messages: { 'x:y': on(z.object({}), () => {}) }, sends: [] });
    assert.throws(() => combineAreas([a, b]), /x:y is handled by both a and b/);
  });

  it('the trade room handles the four trade actions with the very entries the world uses', () => {
    assert.deepEqual(Object.keys(TRADE_ROOM_MESSAGES).sort(), ['tradeAccept', 'tradeAddItem', 'tradeCancel', 'tradeRemoveItem']);
    for (const [type, entry] of Object.entries(TRADE_ROOM_MESSAGES)) {
      assert.equal(world.messages.get(type)?.entry.schema, entry.schema, `${type}: one payload schema`);
      assert.equal(entry.refusal, 'tradeError');
    }
  });

  it('every area lives in a module of rooms/ and says what it sends', () => {
    const modules = areaModules();
    for (const area of WORLD_AREAS) {
      assert.ok(modules.has(area.name), `area ${area.name} is declared with defineArea`);
      assert.ok(Array.isArray(area.sends), `area ${area.name} lists its events`);
    }
  });

  it('docs/architecture.md\'s event index is the one the table generates (npm run docs:architecture)', () => {
    const doc = fs.readFileSync(ARCHITECTURE_DOC, 'utf8');
    assert.equal(doc, withEventIndex(doc, renderEventIndex()), 'stale event index: run npm run docs:architecture');
  });

  it('docs/architecture.md draws the membership state machine of rooms/entry/membership-states.ts (npm run docs:architecture)', () => {
    const doc = fs.readFileSync(ARCHITECTURE_DOC, 'utf8');
    assert.equal(doc, withGeneratedBlocks(doc), 'stale membership table: run npm run docs:architecture');
  });

  it('the ways into and out of a world each have a row naming the membership module', () => {
    const index = renderEventIndex();
    for (const event of ['`world:enter`', '`world:leave`', '`world:hop`', 'SDK `join`', 'SDK `reconnect`', 'SDK `room.leave()`']) {
      const row = index.split('\n').find((line) => line.startsWith(`| ${event}`));
      assert.ok(row && /rooms\/entry\//.test(row), `${event}: ${row}`);
    }
  });
});
