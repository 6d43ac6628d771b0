/**
 * Measures a floor of the walker benchmark (loadtest/baseline/raw-send-server.ts): `clients` sockets, the server
 * writing a frame of `frameBytes` and an acknowledgement to each every 600 ms; the server's CPU per player per tick.
 * - `burst` (the raw send floor): the sockets only read; each acknowledgement goes out with its socket's frame.
 * - `on-move` (the I/O floor): each socket also sends a pre-encoded move once a tick at its own moment, as a walker
 *   does, and the server acknowledges it when it arrives, as the game does.
 */
import { WebSocket } from 'ws';
import { CpuMeter } from './process-monitor.ts';
import { freePort, startServerProcess } from './server-process.ts';
import { round } from './stats.ts';
import { cpuUsPerPlayerTick } from './tick-figures.ts';
import { TICK_MS } from '../../src/game/ticks.ts';
import { ACK_BYTES } from '../baseline/raw-send-frames.ts';

export type FloorAcks = 'burst' | 'on-move';

export interface FloorFigures {
  acks: FloorAcks;
  clients: number;
  frameBytes: number;
  serverCpuCores: number;
  cpuUsPerPlayerTick: number;
  /** The part of cpuUsPerPlayerTick the kernel spent (writing to the sockets). */
  kernelUsPerPlayerTick: number;
  /** Bytes the clients received per socket per tick (checks the floor wrote what it should). */
  receivedBytesPerPlayerTick: number;
  /** Acknowledgements the clients received per socket per tick (checks the floor wrote one each, at either pace). */
  acksPerPlayerTick: number;
}

const MOVE = JSON.stringify({ type: 'player:move', data: { x: 3215, z: 3218 } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureRawSendFloor(clients: number, frameBytes: number, durationSeconds: number, acks: FloorAcks = 'burst'): Promise<FloorFigures> {
  const port = await freePort();
  const server = await startServerProcess(['loadtest/baseline/raw-send-server.ts', String(port), String(Math.round(frameBytes)), acks], {}, port);
  const sockets: WebSocket[] = [];
  const timers: NodeJS.Timeout[] = [];
  let received = 0;
  let acksReceived = 0;
  try {
    for (let i = 0; i < clients; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, clients - i) }, () => new Promise<void>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
        socket.on('message', (data: Buffer) => {
          received += data.length;
          if (data.length === ACK_BYTES) acksReceived++;
        });
        socket.once('open', () => {
          if (acks === 'on-move') timers.push(setTimeout(() => timers.push(setInterval(() => socket.send(MOVE), TICK_MS)), Math.random() * TICK_MS));
          resolve();
        });
        socket.once('error', reject);
        sockets.push(socket);
      })));
    }
    await sleep(3_000);
    const cpu = new CpuMeter(server.child.pid!);
    const receivedBefore = received;
    const acksBefore = acksReceived;
    cpu.start();
    await sleep(durationSeconds * 1000);
    const cores = cpu.stop();
    const ticks = (durationSeconds * 1000) / TICK_MS;
    return {
      acks,
      clients,
      frameBytes: Math.round(frameBytes),
      serverCpuCores: round(cores, 3),
      cpuUsPerPlayerTick: cpuUsPerPlayerTick(cores, clients),
      kernelUsPerPlayerTick: cpuUsPerPlayerTick(cpu.kernelCores, clients),
      receivedBytesPerPlayerTick: Math.round((received - receivedBefore) / clients / ticks),
      acksPerPlayerTick: round((acksReceived - acksBefore) / clients / ticks, 2),
    };
  } finally {
    for (const timer of timers) clearInterval(timer);
    for (const socket of sockets) socket.terminate();
    await server.stop();
  }
}
