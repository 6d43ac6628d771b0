/**
 * The README's configuration table, generated from the declarations of src/config/variables.ts: one table per area,
 * one row per variable. `npm run docs:config` (src/tools/config-docs.ts) writes it between the markers;
 * test/readme.test.ts regenerates it in memory and fails when the committed README differs.
 */
import type { Variable, VariableGroup } from './declare.ts';
import { CONFIG_GROUPS } from './variables.ts';

export const CONFIG_DOCS_FILE = 'README.md';
export const BEGIN_MARKER = '<!-- config:begin — generated from src/config/variables.ts by `npm run docs:config`; edit there -->';
export const END_MARKER = '<!-- config:end -->';

const cell = (value: string) => value.replaceAll('|', '\\|').replaceAll('\n', ' ');

function meaning(variable: Variable<unknown>): string {
  return variable.developmentOnly ? `development only (ignored with a warning in production): ${variable.description}` : variable.description;
}

function defaultOf(variable: Variable<unknown>): string {
  return variable.publicAddress ? `${variable.defaultText}; production: a reachable address` : variable.defaultText;
}

function table(group: VariableGroup): string[] {
  return [
    `### ${group.title}`,
    '',
    '| Variable | Meaning | Values | Default |',
    '|---|---|---|---|',
    ...Object.values(group.variables).map((variable) =>
      `| \`${variable.name}\` | ${cell(meaning(variable))} | ${cell(variable.accepts)} | ${cell(defaultOf(variable))} |`),
  ];
}

/** The text between the markers (without them). */
export function renderConfigTable(groups: readonly VariableGroup[] = CONFIG_GROUPS): string {
  return groups.map((group) => table(group).join('\n')).join('\n\n');
}

/** `document` with the text between its markers replaced by the generated table. */
export function withConfigTable(document: string, table: string = renderConfigTable()): string {
  const begin = document.indexOf(BEGIN_MARKER);
  const end = document.indexOf(END_MARKER);
  if (begin < 0 || end < begin) throw new Error(`${CONFIG_DOCS_FILE} has no ${BEGIN_MARKER} … ${END_MARKER} block`);
  return `${document.slice(0, begin + BEGIN_MARKER.length)}\n\n${table}\n\n${document.slice(end)}`;
}
