/**
 * The soak bots' socket (loadtest/lib/soak/socket.ts) counts a connection whose close handshake has begun as
 * closed. A server that sends its close frame and then stops (a process stalled right after closing a lost world's
 * sessions) leaves the client's socket CLOSING for up to 30 s; the bots saw it as open, every send failed at once,
 * and a trader pair spun its loop without waiting — the chaos harness froze for 30 s and the pair spent its
 * million rounds and left the run (docs/chaos.md, seed 2815).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { SocketClosed, SoakSocket } from '../loadtest/lib/soak/socket.ts';

describe('the soak bots\' socket', () => {
  let server: http.Server;
  const held: Duplex[] = [];

  before(async () => {
    const wss = new WebSocketServer({ noServer: true });
    server = http.createServer();
    // Closes each session with 4012, then reads nothing more: the client's close frame is never answered.
    server.on('upgrade', (request, socket, head) => {
      held.push(socket);
      wss.handleUpgrade(request, socket, head, (ws) => {
        ws.close(4012, 'world lost');
        socket.pause();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is closed once the server\'s close frame has come, though the connection is still open', async () => {
    const { port } = server.address() as AddressInfo;
    const client = await SoakSocket.open(`ws://127.0.0.1:${port}`, 3_000);
    for (let i = 0; i < 100 && client.socket.readyState === WebSocket.OPEN; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(client.socket.readyState, WebSocket.CLOSING, 'the close handshake is under way, unanswered');
    assert.equal(client.isClosed, true);
    assert.throws(() => client.send('bank:open'), SocketClosed);
    await assert.rejects(client.waitFrom(client.mark(), () => true, 2_000), SocketClosed, 'a wait fails at once, not after its timeout');
    client.close();
  });
});
