/**
 * The layer map of docs/architecture.md is the contract for imports: this test reads the table from the doc and
 * checks every import of src/, rooms/ and schema/ against it, and that no import cycle exists between files or
 * between folders. It also checks that rooms/ holds no SQL.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../helpers/process.ts';
import { cycles, importGraph, type ImportEdge } from './import-graph.ts';

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
    assert.deepEqual(layers.map((l) => l.name), ['app', 'edges', 'rooms', 'agents', 'context', 'services', 'db', 'observability', 'game', 'manifests', 'schema', 'base']);
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

describe('architecture: rooms hold no SQL', () => {
  const SQL = /\.execute\s*[<(]|@mikro-orm|\bselect\s[\s\S]{0,200}?\sfrom\s|\binsert\s+into\b|\bdelete\s+from\b|\bupdate\s+\w+\s+set\b/i;
  const roomFiles = files.filter((file) => file.startsWith('rooms/'));

  it('finds the rooms files', () => assert.ok(roomFiles.length > 20));

  it('no statement, query builder or ORM import in rooms/ (stores in src/db own them)', () => {
    const offenders = roomFiles.filter((file) => {
      const code = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      return SQL.test(code);
    });
    assert.deepEqual(offenders, []);
  });

  it('the SQL check recognises a statement', () => {
    assert.ok(SQL.test("await tx.execute('update characters set health = ? where id = ?', [1, 2])"));
    assert.ok(SQL.test("import type { SqlEntityManager } from '@mikro-orm/sql';"));
    assert.ok(!SQL.test('await depositItems(tx, player.id, items)'));
  });
});
