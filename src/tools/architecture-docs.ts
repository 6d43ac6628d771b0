/**
 * Writes the event index of docs/architecture.md (between `<!-- events:begin -->` and `<!-- events:end -->`)
 * from the world's message table: `npm run docs:architecture`. test/architecture/message-table.test.ts fails when
 * the committed index differs from what this prints.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORLD_AREAS } from '../../rooms/world/areas.ts';
import { combineAreas } from '../../rooms/world/message-table.ts';
import { CONNECTION_EVENTS } from '../transport/connection-events.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARCHITECTURE_DOC = path.join(ROOT, 'docs/architecture.md');

function roomsFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    return entry.isDirectory() ? roomsFiles(rel) : rel.endsWith('.ts') ? [rel] : [];
  });
}

/** The module that declares an area: the file holding `defineArea({ name: '<name>'`. */
export function areaModules(): Map<string, string> {
  const modules = new Map<string, string>();
  for (const file of roomsFiles('rooms')) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const match of text.matchAll(/defineArea\(\{\s*name:\s*'([^']+)'/g)) modules.set(match[1], file);
  }
  return modules;
}

/**
 * The markdown table: one row per client event (the /ws connection's own, then the world's), with its area, module
 * and refusal event. The TradeRoom handles the four trade actions with the trade area's very entries.
 */
export function renderEventIndex(): string {
  const modules = areaModules();
  const { messages, commands } = combineAreas(WORLD_AREAS);
  const rows = [
    ...CONNECTION_EVENTS.map((type) => `| \`${type}\` | (the /ws connection, before any room) | src/transport/json-connection.ts | \`error\` |`),
    ...[...messages].map(([type, route]) => `| \`${type}\` | ${route.area} | ${modules.get(route.area) ?? '?'} | \`${route.entry.refusal}\` |`),
  ];
  const commandRows = WORLD_AREAS.flatMap((area) => Object.keys(area.commands ?? {}).map((name) => `| \`/${name}\` | ${area.name} | ${modules.get(area.name) ?? '?'} |`));
  if (commandRows.length !== commands.size) throw new Error('a command is declared twice');
  return [
    '| Event | Area | Module | Refusals as |',
    '|---|---|---|---|',
    ...rows,
    '',
    'Chat commands (`player:chat` with `/name args`):',
    '',
    '| Command | Area | Module |',
    '|---|---|---|',
    ...commandRows,
  ].join('\n');
}

const BEGIN_MARKER = '<!-- events:begin -->';
const END_MARKER = '<!-- events:end -->';

/** `markdown` with the text between its event-index markers replaced (an error when the markers are gone). */
export function withEventIndex(markdown: string, index: string): string {
  const begin = markdown.indexOf(BEGIN_MARKER);
  const end = markdown.indexOf(END_MARKER);
  if (begin < 0 || end < begin) throw new Error(`docs/architecture.md has no ${BEGIN_MARKER} … ${END_MARKER} block`);
  return `${markdown.slice(0, begin + BEGIN_MARKER.length)}\n${index}\n${markdown.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = fs.readFileSync(ARCHITECTURE_DOC, 'utf8');
  fs.writeFileSync(ARCHITECTURE_DOC, withEventIndex(doc, renderEventIndex()));
  console.log('docs/architecture.md: event index written');
}
