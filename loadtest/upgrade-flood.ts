/**
 * `npm run bench:upgrade-flood -- [--rate 2000] [--duration 10] [--hold 5]`: how many file descriptors a flood of
 * refused /ws upgrades from one address costs the server (issue #35, item 10; docs/BENCHMARKS.md, "Descriptors
 * under an upgrade flood").
 *
 * Starts a server process of its own (`npm start`'s flags, test mode, in-memory database) with production's
 * per-address caps (WS_MAX_CONNECTIONS_PER_ADDRESS 100, WS_MAX_UNAUTHENTICATED_PER_ADDRESS 10), then opens `--rate`
 * TCP connections a second to /ws from 127.0.0.1 for `--duration` seconds, open loop (new ones do not wait for the
 * answers). Each sends an upgrade request, reads the answer's status line and keeps its socket open for `--hold`
 * seconds, ignoring the server's FIN (`allowHalfOpen`), as a flooding client does; at most `--max-open` client
 * sockets are open at once (the flood's own descriptors). The server's descriptors (/proc/<pid>/fd, Linux) are
 * sampled every 20 ms; it prints their baseline, peak and count after the flood, and the answers by status.
 * Loopback only; every loop is bounded by the duration and the counts.
 */
import fs from 'node:fs';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort, startServerProcess } from './lib/server-process.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '2000' }, duration: { type: 'string', default: '10' },
    hold: { type: 'string', default: '5' }, 'max-open': { type: 'string', default: '12000' },
  },
});
const rate = Number(values.rate);
const durationSeconds = Number(values.duration);
const holdSeconds = Number(values.hold);
const maxOpen = Number(values['max-open']);
for (const [name, value, max] of [['rate', rate, 20_000], ['duration', durationSeconds, 300], ['hold', holdSeconds, 60], ['max-open', maxOpen, 15_000]] as const) {
  if (!Number.isFinite(value) || value <= 0 || value > max) {
    process.stderr.write(`upgrade-flood: --${name} must be above 0 and at most ${max}\n`);
    process.exit(2);
  }
}

const TICK_MS = 10;
const SAMPLE_MS = 20;

function descriptors(pid: number): number {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

const port = await freePort();
const server = await startServerProcess(['src/start.js'], {
  NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', PGLITE_DATA_DIR: 'memory://',
  WS_MAX_CONNECTIONS_PER_ADDRESS: '100', WS_MAX_UNAUTHENTICATED_PER_ADDRESS: '10',
}, port);
const pid = server.child.pid!;
try {
  await sleep(500);
  const baseline = descriptors(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, descriptors(pid))), SAMPLE_MS);
  const statuses = new Map<string, number>();
  const open = new Set<net.Socket>();
  let opened = 0;
  let skipped = 0;
  const request = () => `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
    + `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
  const count = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const started = performance.now();
  let last = started;
  let due = 0;
  while (performance.now() - started < durationSeconds * 1000) {
    // Open loop at `rate`: a late tick opens the connections that fell due meanwhile.
    const now = performance.now();
    due += rate * (now - last) / 1000;
    last = now;
    for (; due >= 1; due--) {
      if (open.size >= maxOpen) {
        skipped++;
        continue;
      }
      opened++;
      const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      open.add(socket);
      let answered = false;
      socket.on('error', () => {});
      socket.once('connect', () => socket.write(request()));
      socket.once('data', (chunk) => {
        answered = true;
        count(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'other');
      });
      socket.once('close', () => {
        if (!answered) count('closed unanswered');
        open.delete(socket);
      });
      setTimeout(() => socket.destroy(), holdSeconds * 1000).unref();
    }
    await sleep(TICK_MS);
  }
  const atEnd = descriptors(pid);
  for (const socket of open) socket.destroy();
  await sleep(1_000);
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const answers = [...statuses].sort().map(([status, n]) => `${status}: ${n}`).join(', ');
  process.stdout.write([
    `upgrade flood: ${opened} upgrades to /ws from 127.0.0.1 in ${durationSeconds} s (${Math.round(opened / durationSeconds)}/s offered, open loop`
      + `${skipped > 0 ? `; ${skipped} not opened: ${maxOpen} client sockets already open` : ''}), each held ${holdSeconds} s ignoring the server's FIN`,
    `answers: ${answers}`,
    `server descriptors: baseline ${baseline}, peak ${peak}, at the flood's end ${atEnd}, 1 s after the clients closed ${descriptors(pid)}`,
    `(run took ${seconds.toFixed(1)} s; per-address caps: 100 connections, 10 unauthenticated)`,
  ].join('\n') + '\n');
} finally {
  await server.stop();
}
