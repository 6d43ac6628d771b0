/**
 * The "raw send floor" of the walker benchmark (issue #20): a bare process that does nothing but write the same
 * pre-encoded frames to its sockets at the tick's cadence — per socket per 600 ms, one frame of the size the game
 * server's JSON players received per tick, and one small acknowledgement-sized frame. What the game spends above
 * this is its own work; what this costs is the floor of sending through Node's WebSocket stack on this machine.
 * Run: node loadtest/baseline/raw-send-server.ts <port> <frame bytes>
 */
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { TICK_MS } from '../../src/game/ticks.ts';

const port = Number(process.argv[2]);
const frameBytes = Math.max(16, Number(process.argv[3] ?? 1024));
const ACK_BYTES = 120;

/** A JSON text frame of exactly `bytes` bytes, built once. */
function frameOf(type: string, bytes: number): string {
  const head = `{"type":"${type}","data":{"pad":"`;
  const tail = '"}}';
  return head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail;
}

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
});
setInterval(() => {
  for (const socket of sockets) {
    socket.send(ack);
    socket.send(update);
  }
}, TICK_MS);
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
