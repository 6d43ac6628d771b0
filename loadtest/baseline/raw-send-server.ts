/**
 * The floors of the walker benchmark (issue #20): a bare process that does nothing but write the same
 * pre-encoded frames to its sockets at the tick's cadence — per socket per 600 ms, one frame of the size the game
 * server's JSON players received per tick, and one small acknowledgement-sized frame. What the game spends above
 * this is its own work; what this costs is the floor of sending through Node's WebSocket stack on this machine.
 * When each socket's acknowledgement goes out (argv[4]):
 * - `burst` (the raw send floor): with the socket's frame, at the tick;
 * - `on-move` (the I/O floor): as soon as a frame arrives from the socket, the way the game acknowledges a move.
 *   The bots send theirs at their own moments in the tick, so these writes are spread over it as the game's are.
 * Run: node loadtest/baseline/raw-send-server.ts <port> <frame bytes> [burst|on-move]
 */
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { TICK_MS } from '../../src/game/ticks.ts';
import { ACK_BYTES, frameOf } from './raw-send-frames.ts';

const port = Number(process.argv[2]);
const frameBytes = Math.max(16, Number(process.argv[3] ?? 1024));
const acksOnMove = process.argv[4] === 'on-move';

const update = frameOf('world:update', frameBytes);
const ack = frameOf('player:path', ACK_BYTES);
const sockets = new Set<WebSocket>();

const server = http.createServer((req, res) => {
  res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'text/plain' }).end(req.url === '/health' ? 'ok' : '');
});
const wss = new WebSocketServer({ server, path: '/ws' });
wss.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => sockets.delete(socket));
  if (acksOnMove) socket.on('message', () => socket.send(ack));
});
setInterval(() => {
  for (const socket of sockets) {
    if (!acksOnMove) socket.send(ack);
    socket.send(update);
  }
}, TICK_MS);
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
