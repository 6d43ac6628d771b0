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
import { HOP_MOVER, MEMBERSHIP_EVENTS, MEMBERSHIP_INPUTS, MEMBERSHIP_STATES, MEMBERSHIP_STEPS, MEMBERSHIP_TABLE } from '../../rooms/entry/membership-states.ts';

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
 * The markdown table: one row per client event (the /ws connection's authentication, the ways into and out of a
 * world, then the world's events), with its area, module and refusal event. The TradeRoom handles the four trade
 * actions with the trade area's very entries; a `world:hop` the world approves is carried out by the membership.
 */
export function renderEventIndex(): string {
  const modules = areaModules();
  const { messages, commands } = combineAreas(WORLD_AREAS);
  const rows = [
    '| `authenticate` | (the /ws connection, before any room) | src/transport/json-connection.ts | `error` |',
    ...MEMBERSHIP_EVENTS.map((row) => `| ${row.event} | ${row.area} | ${row.module} | ${row.refusal} |`),
    ...[...messages].map(([type, route]) => {
      const module = modules.get(route.area) ?? '?';
      const moved = type === 'world:hop' ? ` (approval); the move: ${HOP_MOVER} (/ws)` : '';
      return `| \`${type}\` | ${route.area} | ${module}${moved} | \`${route.entry.refusal}\` |`;
    }),
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

/**
 * The membership state machine (rooms/entry/membership-states.ts) as a table: per state, what each input does
 * there (→ the next states, forwarded, refused with its code, ignored), then where the server's own steps lead.
 */
export function renderMembershipTable(): string {
  const cell = (state: (typeof MEMBERSHIP_STATES)[number], input: (typeof MEMBERSHIP_INPUTS)[number]): string => {
    const outcome = MEMBERSHIP_TABLE[state][input];
    if (!outcome) return '·';
    if (outcome.kind === 'go') return `→ ${outcome.to.join(' / ')}${outcome.unless ? ` (refused ${outcome.unless})` : ''}`;
    if (outcome.kind === 'refuse') return `\`${outcome.code}\``;
    return outcome.kind === 'forward' ? 'forwarded' : 'ignored';
  };
  return [
    `| State | ${MEMBERSHIP_INPUTS.join(' | ')} | ends in (its own steps) |`,
    `|---|${MEMBERSHIP_INPUTS.map(() => '---').join('|')}|---|`,
    ...MEMBERSHIP_STATES.map((state) => `| **${state}** | ${MEMBERSHIP_INPUTS.map((input) => cell(state, input)).join(' | ')} | ${MEMBERSHIP_STEPS[state]?.join(' / ') ?? ''} |`),
  ].join('\n');
}

/** `markdown` with the text between `<!-- name:begin -->` and `<!-- name:end -->` replaced (an error when gone). */
export function withBlock(markdown: string, name: string, content: string): string {
  const beginMarker = `<!-- ${name}:begin -->`;
  const endMarker = `<!-- ${name}:end -->`;
  const begin = markdown.indexOf(beginMarker);
  const end = markdown.indexOf(endMarker);
  if (begin < 0 || end < begin) throw new Error(`docs/architecture.md has no ${beginMarker} … ${endMarker} block`);
  return `${markdown.slice(0, begin + beginMarker.length)}\n${content}\n${markdown.slice(end)}`;
}

/** `markdown` with its event index replaced. */
export function withEventIndex(markdown: string, index: string): string {
  return withBlock(markdown, 'events', index);
}

/** The generated parts of docs/architecture.md, brought up to date. */
export function withGeneratedBlocks(markdown: string): string {
  return withBlock(withEventIndex(markdown, renderEventIndex()), 'membership', renderMembershipTable());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = fs.readFileSync(ARCHITECTURE_DOC, 'utf8');
  fs.writeFileSync(ARCHITECTURE_DOC, withGeneratedBlocks(doc));
  console.log('docs/architecture.md: event index and membership table written');
}
