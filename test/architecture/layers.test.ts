/**
 * The layer map of docs/architecture.md is the contract for imports: this test reads the table from the doc and
 * checks every import of src/, rooms/ and schema/ against it, and that no import cycle exists between files or
 * between folders. It also checks that SQL lives only in src/db: no file of another layer holds a statement, imports
 * the ORM or an entity class, or calls the entity manager (test/architecture/sql-check.ts).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../helpers/process.ts';
import { cycles, importGraph, type ImportEdge } from './import-graph.ts';
import { sqlFindings } from './sql-check.ts';

interface Layer {
  name: string;
  rank: number;
  paths: string[];
}

function layerMap(markdown: string): Layer[] {
  const table = /<!-- layers:begin -->([\s\S]*?)<!-- layers:end -->/.exec(markdown)?.[1];
  assert.ok(table, 'docs/architecture.md has the layer table between its markers');
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Layer') && !line.startsWith('|---'));
  return rows.map((row, rank) => {
    const [name, paths] = row.split('|').slice(1, 3).map((cell) => cell.trim());
    return { name, rank, paths: [...paths.matchAll(/`([^`]+)`/g)].map((m) => m[1]) };
  });
}

function layerOf(layers: readonly Layer[], file: string): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of layers) {
    for (const prefix of layer.paths) {
      const matches = prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix;
      if (matches && (!best || prefix.length > best.length)) best = { layer, length: prefix.length };
    }
  }
  return best?.layer;
}

/** The imports that point up the map (to a layer above the importing file's). */
export function upwardImports(layers: readonly Layer[], edges: readonly ImportEdge[]): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    const from = layerOf(layers, edge.from);
    const to = layerOf(layers, edge.to);
    if (from && to && to.rank < from.rank) found.push(`${edge.from}:${edge.line} (${from.name}) imports ${edge.to} (${to.name})`);
  }
  return found;
}

const FEATURE = /^rooms\/world\/features\/[^/]+\//;

/**
 * The unit of the folder-cycle check: src/auth/x.ts → src/auth; src/config.ts → src/config.ts; schema/x.ts → schema.
 * Below rooms/ each area of rooms/world/features/ is one unit (rooms/world/features/economy/bank.ts →
 * rooms/world/features/economy; a one-file area such as features/chat.ts is its own) and every other rooms/ file
 * is its own unit, so the check sees a cycle between two areas even when it runs through a shared file of rooms/
 * (grouping rooms/world as one unit would see a cycle in every area importing area.ts while areas.ts lists them).
 */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'rooms') return FEATURE.exec(file)?.[0].slice(0, -1) ?? file;
  if (parts[0] !== 'src') return parts[0];
  return parts.length > 2 ? parts.slice(0, 2).join('/') : file;
}

const docs = fs.readFileSync(path.join(PROJECT_ROOT, 'docs/architecture.md'), 'utf8');
const layers = layerMap(docs);
const { files, edges } = importGraph(PROJECT_ROOT);

describe('architecture: the layer map of docs/architecture.md', () => {
  it('the map names its layers from the top (app) to the bottom (base)', () => {
    assert.deepEqual(layers.map((l) => l.name), ['app', 'edges', 'rooms', 'agents', 'context', 'services', 'db', 'observability', 'game', 'manifests', 'schema', 'base', 'web']);
  });

  it('the browser folder (src/web/) imports only itself, and no server file imports it', () => {
    const crossing = edges.filter((e) => e.from.startsWith('src/web/') !== e.to.startsWith('src/web/'));
    assert.deepEqual(crossing.map((e) => `${e.from}:${e.line} imports ${e.to}`), []);
    assert.ok(files.some((file) => file.startsWith('src/web/shared/')), 'the browser modules are in the graph');
  });

  it('places every source file in a layer', () => {
    const unplaced = files.filter((file) => !layerOf(layers, file));
    assert.deepEqual(unplaced, [], 'files outside the map: add their folder to a layer of docs/architecture.md');
  });

  it('every import resolves to a file of the repository', () => {
    const known = new Set(files);
    const dangling = edges.filter((e) => !known.has(e.to) && !fs.existsSync(path.join(PROJECT_ROOT, e.to)));
    assert.deepEqual(dangling, []);
  });

  it('no import points up the map', () => {
    assert.deepEqual(upwardImports(layers, edges), []);
  });

  it('no import cycle between files', () => {
    assert.deepEqual(cycles(files, edges), []);
  });

  it('no import cycle between folders (below rooms/: between the areas of rooms/world/features/)', () => {
    const folderEdges = edges.map((e) => ({ from: folderOf(e.from), to: folderOf(e.to) }));
    assert.deepEqual(cycles(new Set(files.map(folderOf)), folderEdges), []);
  });

  it('the folder check tells the feature areas apart and reports a cycle between two of them', () => {
    assert.equal(folderOf('rooms/world/features/economy/bank.ts'), 'rooms/world/features/economy');
    assert.equal(folderOf('rooms/world/features/chat.ts'), 'rooms/world/features/chat.ts');
    assert.equal(folderOf('rooms/world/online-player.ts'), 'rooms/world/online-player.ts');
    assert.equal(folderOf('src/auth/service.ts'), 'src/auth');
    const folders = (edges: Array<{ from: string; to: string }>) => edges.map((e) => ({ from: folderOf(e.from), to: folderOf(e.to) }));
    const direct = folders([
      { from: 'rooms/world/features/economy/inventory.ts', to: 'rooms/world/features/skills/skill-book.ts' },
      { from: 'rooms/world/features/skills/combat.ts', to: 'rooms/world/features/economy/death.ts' },
    ]);
    assert.deepEqual(cycles([], direct), [['rooms/world/features/economy', 'rooms/world/features/skills']]);
    const throughSharedFile = folders([
      { from: 'rooms/world/features/economy/inventory.ts', to: 'rooms/world/shared.ts' },
      { from: 'rooms/world/shared.ts', to: 'rooms/world/features/skills/prayer.ts' },
      { from: 'rooms/world/features/skills/combat.ts', to: 'rooms/world/features/economy/death.ts' },
    ]);
    assert.deepEqual(cycles([], throughSharedFile), [['rooms/world/features/economy', 'rooms/world/features/skills', 'rooms/world/shared.ts']]);
  });

  it('the checks fail on a reversed arrow, a cycle and an unplaced file (the checker itself is tested)', () => {
    const reversed = { from: 'src/game/bank.ts', to: 'rooms/WorldRoom.ts', line: 1 };
    assert.equal(upwardImports(layers, [reversed]).length, 1, 'src/game importing rooms is reported');
    assert.equal(upwardImports(layers, [{ from: 'src/auth/service.ts', to: 'src/http/app.ts', line: 1 }]).length, 1, 'a service importing http is reported');
    assert.equal(upwardImports(layers, [{ from: 'rooms/WorldRoom.ts', to: 'src/transport/json-connection.ts', line: 1 }]).length, 1, 'rooms importing the transport is reported');
    assert.equal(upwardImports(layers, [{ from: 'rooms/WorldRoom.ts', to: 'src/game/bank.ts', line: 1 }]).length, 0, 'rooms importing the rules is fine');
    assert.deepEqual(cycles(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }]), [['a', 'b', 'c']]);
    assert.equal(layerOf(layers, 'elsewhere/x.ts'), undefined);
  });
});

describe('architecture: SQL only in src/db', () => {
  const outside = files.filter((file) => !file.startsWith('src/db/'));
  const findingsOf = (file: string) => sqlFindings(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')).map((f) => `${file} ${f}`);

  it('checks every layer but db, rooms/ among them', () => {
    assert.ok(outside.filter((file) => file.startsWith('rooms/')).length > 20);
    const checked = new Set(outside.map((file) => layerOf(layers, file)?.name));
    assert.deepEqual(layers.map((l) => l.name).filter((name) => !checked.has(name)), ['db']);
  });

  it('no statement, query builder, ORM import, entity class or entity-manager call outside src/db (stores own them)', () => {
    assert.deepEqual(outside.flatMap(findingsOf), []);
  });

  it('the SQL check names each way past the stores, and lets store calls and entity types through', () => {
    const caught: Array<[string, RegExp]> = [
      ["await tx.execute('update characters set health = ? where id = ?', [1, 2])", /entity-manager method.*statement's text/],
      ['const rows = await em.getConnection().execute(sql, []);', /entity-manager method/],
      ["import type { SqlEntityManager } from '@mikro-orm/sql';", /imports the ORM/],
      ["import type { EntityManager } from '@mikro-orm/core';", /imports the ORM/],
      ["import { Character } from '../../db/entities/index.ts';", /entity class as a value/],
      ["import { type Agent, Character } from '../db/entities/index.ts';", /entity class as a value/],
      ["const { User } = await import('../db/entities/user.ts');", /entity class as a value/],
      ['const profile = await context.db.em.fork().findOne(PlayerProfile, { accountId });', /entity manager behind the database handle/],
      ['const em = db.em;\nawait em.nativeDelete(Character, { id });', /^line 2: calls an entity-manager method/],
      ['await tx.findAndCount(Friendship, { characterId }, { limit, offset });', /entity-manager method/],
      ["await tx.find('Character', { accountId });", /entity by string/],
      ['const text = `select id from characters where name = ${name}`;', /statement's text/],
      ["db.orm.schema.dropSchema();", /entity manager behind the database handle/],
    ];
    for (const [code, rule] of caught) assert.match(sqlFindings(code).join(' | '), rule, code);
    for (const code of [
      'await depositItems(tx, player.id, items);',
      "import type { Agent } from '../db/entities/index.ts';",
      "import { type Agent, type Character } from '../db/entities/index.ts';",
      'const character = await findCharacter(session(context.db), id);',
      '/** reads: select id from characters */\nconst x = 1;',
    ]) assert.deepEqual(sqlFindings(code), [], code);
  });
});
