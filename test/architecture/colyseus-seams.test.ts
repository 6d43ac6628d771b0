/**
 * The private API the server still needs (src/colyseus-seams.ts) against the installed Colyseus and ws: each seam
 * still does what the server relies on, and no other file reaches into Colyseus' private members. A failure here
 * after an upgrade means a seam must be revisited, not that a test must be loosened.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ClientState, Room, type Client, type ClientPrivate } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { WebSocketServer } from 'ws';
import { markJoined, rawSocketOf, sdkSocketServer, SEAM_VERSIONS } from '../../src/colyseus-seams.ts';
import { PROJECT_ROOT } from '../helpers/process.ts';
import { importGraph } from './import-graph.ts';

const require = createRequire(import.meta.url);

function installedVersion(name: string): string {
  const entry = require.resolve(name);
  let dir = path.dirname(entry);
  while (!fs.existsSync(path.join(dir, 'package.json')) || JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== name) {
    dir = path.dirname(dir);
  }
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

describe('architecture: the Colyseus seams (src/colyseus-seams.ts)', () => {
  it('were written against the installed versions (after an upgrade, re-check every seam and bump SEAM_VERSIONS)', () => {
    for (const [name, version] of Object.entries(SEAM_VERSIONS)) assert.equal(installedVersion(name), version, name);
  });

  it('the ws transport keeps its WebSocketServer where sdkSocketServer reads it', () => {
    const transport = new WebSocketTransport({ noServer: true });
    assert.ok(sdkSocketServer(transport) instanceof WebSocketServer);
  });

  it('markJoined makes a client one Colyseus holds a reconnection seat for (allowReconnection refuses a client "not joined")', async () => {
    const room = new Room();
    const client = { sessionId: 's1', reconnectionToken: 't1', state: ClientState.JOINING, _enqueuedMessages: [] } as unknown as Client & ClientPrivate;
    // Colyseus rejects with `new ServerError("not joined")`: the words land in the error's code.
    const notJoined = (error: unknown) => /not joined/.test(`${String((error as { code?: unknown })?.code)} ${String((error as Error)?.message)}`);
    await assert.rejects(room.allowReconnection(client, 1) as unknown as Promise<unknown>, notJoined, 'a client not marked joined gets no seat');
    markJoined(client);
    assert.equal(client.state, ClientState.JOINED);
    assert.equal(client._enqueuedMessages, undefined);
    // Past the "not joined" check, the room goes on to reserve the seat (it has no matchmaker here, so it may fail
    // later, but never with "not joined").
    const seat = (async () => room.allowReconnection(client, 1))();
    await seat.then(() => undefined, (error: unknown) => assert.ok(!notJoined(error), String(error)));
  });

  it('a ws socket keeps its TCP socket where rawSocketOf reads it', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const { WebSocket } = await import('ws');
    const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as { port: number }).port}`);
    await new Promise((resolve) => socket.once('open', resolve));
    const raw = rawSocketOf(socket);
    assert.equal(typeof raw?.cork, 'function');
    assert.equal(typeof raw?.uncork, 'function');
    socket.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('no other source file reaches into private members (`_name`) of Colyseus or ws', () => {
    const { files } = importGraph(PROJECT_ROOT);
    const offenders: string[] = [];
    for (const file of files.filter((f) => f !== 'src/colyseus-seams.ts')) {
      // Comments, and the fields a transport's client declares to implement Colyseus' ClientPrivate, are not uses.
      const code = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
        .replace(/^\s*_\w+\s*:.*$/gm, '');
      for (const match of code.matchAll(/\b(_onJoin|_reconnections|_reservedSeats|_enqueuedMessages|_socket|_onMessage|_onLeave)\b/g)) {
        offenders.push(`${file}: ${match[1]}`);
      }
      if (/as unknown as \{\s*wss\b/.test(code)) offenders.push(`${file}: wss`);
    }
    assert.deepEqual(offenders, []);
  });
});
