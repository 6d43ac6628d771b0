/**
 * Measures the raw send floor (loadtest/baseline/raw-send-server.ts): `clients` sockets that only read, the server
 * writing a frame of `frameBytes` and an acknowledgement to each every 600 ms; the server's CPU per player per tick.
 */
import { WebSocket } from 'ws';
import { CpuMeter } from './process-monitor.ts';
import { freePort, startServerProcess } from './server-process.ts';
import { round } from './stats.ts';
import { cpuUsPerPlayerTick } from './tick-figures.ts';
import { TICK_MS } from '../../src/game/ticks.ts';

export interface FloorFigures {
  clients: number;
  frameBytes: number;
  serverCpuCores: number;
  cpuUsPerPlayerTick: number;
  /** The part of cpuUsPerPlayerTick the kernel spent (writing to the sockets). */
  kernelUsPerPlayerTick: number;
  /** Bytes the clients received per socket per tick (checks the floor wrote what it should). */
  receivedBytesPerPlayerTick: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureRawSendFloor(clients: number, frameBytes: number, durationSeconds: number): Promise<FloorFigures> {
  const port = await freePort();
  const server = await startServerProcess(['loadtest/baseline/raw-send-server.ts', String(port), String(Math.round(frameBytes))], {}, port);
  const sockets: WebSocket[] = [];
  let received = 0;
  try {
    for (let i = 0; i < clients; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, clients - i) }, () => new Promise<void>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
        socket.on('message', (data: Buffer) => (received += data.length));
        socket.once('open', () => resolve());
        socket.once('error', reject);
        sockets.push(socket);
      })));
    }
    await sleep(3_000);
    const cpu = new CpuMeter(server.child.pid!);
    const receivedBefore = received;
    cpu.start();
    await sleep(durationSeconds * 1000);
    const cores = cpu.stop();
    const ticks = (durationSeconds * 1000) / TICK_MS;
    return {
      clients,
      frameBytes: Math.round(frameBytes),
      serverCpuCores: round(cores, 3),
      cpuUsPerPlayerTick: cpuUsPerPlayerTick(cores, clients),
      kernelUsPerPlayerTick: cpuUsPerPlayerTick(cpu.kernelCores, clients),
      receivedBytesPerPlayerTick: Math.round((received - receivedBefore) / clients / ticks),
    };
  } finally {
    for (const socket of sockets) socket.terminate();
    await server.stop();
  }
}
