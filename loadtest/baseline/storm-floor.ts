/**
 * The entry storm's control (loadtest/storm-bench.ts): a bare WebSocket server that answers a login as fast as a
 * server can — `authenticate` with a success, `world:enter` with a place in line — with no game, no database, no
 * admission. The same storm sent here instead of the game server shows what the storm alone (thousands of sockets
 * opened by a process on the same two cores) costs the players walking on the game server.
 * Run: node loadtest/baseline/storm-floor.ts <port>
 */
import http from 'node:http';
import { WebSocketServer } from 'ws';

const port = Number(process.argv[2] ?? 5701);
const server = http.createServer((req, res) => {
  res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'application/json' }).end('{"status":"ok"}');
});
const wss = new WebSocketServer({ server, path: '/ws', perMessageDeflate: false });
let places = 0;
wss.on('connection', (socket) => {
  socket.on('message', (raw) => {
    const type = (JSON.parse(raw.toString()) as { type?: string }).type;
    if (type === 'authenticate') socket.send(JSON.stringify({ type: 'authResult', data: { success: true } }));
    else if (type === 'world:enter') socket.send(JSON.stringify({ type: 'queue:position', data: { world: 1, position: ++places, length: places, estimatedWaitSeconds: null } }));
  });
});
server.listen(port, '127.0.0.1', 4_096);
process.on('SIGTERM', () => process.exit(0));
