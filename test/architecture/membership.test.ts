/**
 * World membership lives in rooms/entry (docs/architecture.md "World membership"), behind its port: only that folder
 * takes seats through Colyseus' matchmaker, and the /ws transport reaches it only through the port and the
 * membership's entry points. The check is tested on a made-up offender too, so it can fail.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../helpers/process.ts';
import { importGraph, type ImportEdge } from './import-graph.ts';

/** Taking a seat, or choosing a world for an entry: membership's own work. */
const SEAT_CALLS = /\bconnectClientToRoom\s*\(|\bmatchMaker\.(?:reconnect|joinById|joinOrCreate)\s*\(|\breserveWorldSeat\s*\(/;

/** What the transport may import from rooms/entry: the port, the membership, the resuming SDK socket. */
const TRANSPORT_MAY_IMPORT = new Set(['rooms/entry/membership-port.ts', 'rooms/entry/membership.ts', 'rooms/entry/resuming-socket.ts']);

function code(file: string): string {
  return fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

export function seatTakersOutsideEntry(files: ReadonlyArray<{ file: string; code: string }>): string[] {
  return files.filter(({ file, code: text }) => !file.startsWith('rooms/entry/') && SEAT_CALLS.test(text)).map(({ file }) => file);
}

export function transportImportsPastThePort(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((edge) => edge.from.startsWith('src/transport/') && edge.to.startsWith('rooms/entry/') && !TRANSPORT_MAY_IMPORT.has(edge.to))
    .map((edge) => `${edge.from}:${edge.line} imports ${edge.to}`);
}

describe('architecture: world membership behind its port', () => {
  const { files, edges } = importGraph(PROJECT_ROOT);
  const sources = files.map((file) => ({ file, code: code(file) }));

  it('only rooms/entry takes seats (connectClientToRoom, matchMaker.reconnect / joinById / joinOrCreate, reserveWorldSeat)', () => {
    assert.deepEqual(seatTakersOutsideEntry(sources), []);
  });

  it('the /ws transport reaches membership only through the port, the membership and the resuming socket', () => {
    assert.deepEqual(transportImportsPastThePort(edges), []);
  });

  it('the checks report an offender (they can fail)', () => {
    assert.deepEqual(seatTakersOutsideEntry([{ file: 'src/transport/json-connection.ts', code: 'await matchMaker.joinById(roomId, {}, auth);' }]), ['src/transport/json-connection.ts']);
    assert.equal(transportImportsPastThePort([{ from: 'src/transport/json-connection.ts', to: 'rooms/entry/seats.ts', line: 3 }]).length, 1);
  });
});
