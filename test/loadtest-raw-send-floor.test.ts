/**
 * The walker benchmark's floors (issue #20): each writes one frame and one acknowledgement per socket per tick, the
 * raw send floor with the frame, the I/O floor only when a move arrives from the socket (as the game acknowledges).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { ACK_BYTES } from '../loadtest/baseline/raw-send-frames.ts';
import { measureRawSendFloor, type FloorAcks } from '../loadtest/lib/raw-send-floor.ts';
import { freePort, startServerProcess } from '../loadtest/lib/server-process.ts';

/** The frame sizes one socket received from a floor server over `ms`, after sending `moves` frames spaced over it. */
async function framesReceived(acks: FloorAcks, ms: number, moves: number): Promise<number[]> {
  const port = await freePort();
  const server = await startServerProcess(['loadtest/baseline/raw-send-server.ts', String(port), '1000', acks], {}, port);
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  const sizes: number[] = [];
  try {
    socket.on('message', (data: Buffer, binary: boolean) => {
      assert.equal(binary, false, 'the floors write text frames, as the game does');
      sizes.push(data.length);
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    for (let i = 0; i < moves; i++) {
      socket.send('{"type":"player:move","data":{"x":1,"z":2}}');
      await sleep(ms / Math.max(1, moves));
    }
    await sleep(moves === 0 ? ms : 200);
    return sizes;
  } finally {
    socket.terminate();
    await server.stop();
  }
}

describe('load generator: the raw send floor and the I/O floor', function () {
  this.timeout(60_000);

  it('the raw send floor writes an acknowledgement with every frame, unasked', async () => {
    const sizes = await framesReceived('burst', 1_500, 0);
    const frames = sizes.filter((size) => size === 1000).length;
    assert.ok(frames >= 2, `${frames} frames in 1.5 s`);
    assert.equal(sizes.filter((size) => size === ACK_BYTES).length, frames);
  });

  it('the I/O floor acknowledges each move when it arrives, and nothing else', async () => {
    const idle = await framesReceived('on-move', 1_500, 0);
    assert.ok(idle.filter((size) => size === 1000).length >= 2, 'the frames go out at the tick without moves');
    assert.equal(idle.filter((size) => size === ACK_BYTES).length, 0, 'no acknowledgement without a move');
    const moved = await framesReceived('on-move', 1_000, 5);
    assert.equal(moved.filter((size) => size === ACK_BYTES).length, 5);
  });

  for (const acks of ['burst', 'on-move'] as const) {
    it(`measures the ${acks} floor: one acknowledgement and one frame per socket per tick, and the server's CPU`, async () => {
      const figures = await measureRawSendFloor(20, 1000, 3, acks);
      assert.equal(figures.acks, acks);
      assert.ok(figures.acksPerPlayerTick >= 0.8 && figures.acksPerPlayerTick <= 1.2, `${figures.acksPerPlayerTick} acknowledgements per socket per tick`);
      const expected = 1000 + ACK_BYTES;
      assert.ok(Math.abs(figures.receivedBytesPerPlayerTick - expected) <= 0.2 * expected, `${figures.receivedBytesPerPlayerTick} bytes per socket per tick`);
      // 20 sockets for 3 s may cost less than one 10 ms clock tick of CPU: the figures are only checked to be readings.
      assert.ok(Number.isFinite(figures.cpuUsPerPlayerTick) && figures.kernelUsPerPlayerTick >= 0 && figures.kernelUsPerPlayerTick <= figures.cpuUsPerPlayerTick);
    });
  }
});
