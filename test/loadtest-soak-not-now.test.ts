/**
 * A soak trader pair whose world answers "not now" (WORLD_UNAVAILABLE with retryAfterSeconds: a world that cannot
 * confirm its lease) waits before its next round. It used to go on at once and answer each refusal as fast as the
 * server sent it — over 1,000 messages a second on one socket in a chaos run, until the server's message limit
 * refused those too (2,265 RATE_LIMITED beside 11,440 WORLD_UNAVAILABLE). The world here is a small WebSocket
 * server that speaks just enough of the /ws protocol (docs/protocol.md) to let the bots in and refuse the rest.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { Bot, newSoakContext, traderPairLoop } from '../loadtest/lib/soak/bots.ts';
import { seededRandom } from '../loadtest/lib/seed.ts';

describe('a soak trader pair in a world that answers "not now"', function () {
  this.timeout(20_000);
  let world: WebSocketServer;
  let refusals = 0;

  before(async () => {
    world = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws' });
    await new Promise((resolve) => world.once('listening', resolve));
    world.on('connection', (socket) => {
      socket.on('message', (raw) => {
        const { type } = JSON.parse(raw.toString()) as { type: string };
        const send = (event: string, data: unknown) => socket.send(JSON.stringify({ type: event, data }));
        if (type === 'authenticate') {
          send('player:sync', { inventory: [{ itemId: 'logs', quantity: 5 }], equipment: {} });
          send('world:joined', { roomId: 'r1', world: 1, sessionId: 's', reconnectionToken: 'r1:t' });
          return;
        }
        refusals++;
        send('error', { code: 'WORLD_UNAVAILABLE', message: 'This world no longer holds its lease; enter again', event: type, retryAfterSeconds: 1 });
      });
    });
  });
  after(async () => {
    for (const client of world.clients) client.terminate();
    await new Promise((resolve) => world.close(resolve));
  });

  it('waits the advised time between rounds instead of answering each refusal at once', async () => {
    const port = (world.address() as AddressInfo).port;
    const [a, b] = ['A', 'B'].map((n) => new Bot({ role: 'trader', characterId: `c${n}`, accountId: `a${n}`, name: n }, 'token'));
    const ctx = newSoakContext({ wsUrl: `ws://127.0.0.1:${port}`, stopAt: Date.now() + 3_000, opTimeoutMs: 1_000 });
    await traderPairLoop(a, b, ctx, seededRandom(3));
    // About three rounds of two operations (and a trade request) each in 3 s; without the wait, thousands.
    assert.ok(refusals > 0, 'the pair was refused');
    assert.ok(refusals <= 30, `the world was sent ${refusals} events it refused in 3 s`);
    assert.deepEqual(ctx.violations, []);
  });
});
