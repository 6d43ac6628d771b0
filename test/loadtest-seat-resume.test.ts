/**
 * The soak and chaos bots take their seat back after a dropped connection, as the play page's client does
 * (loadtest/lib/soak/seat-resume.ts): the world holds a dropped connection's seat for 20 s, and an entry with the
 * character meanwhile is refused ALREADY_ONLINE. A bot that entered afresh after a drop was back only when the seat
 * lapsed — a chaos walker 20.6 s after the last fault, past the run's 16-s bound.
 */
import assert from 'node:assert/strict';
import { Bot, newSoakContext } from '../loadtest/lib/soak/bots.ts';
import { seedCharacters } from '../loadtest/lib/soak/ledger.ts';
import { RECONNECT_GRACE_MS, SeatResume } from '../loadtest/lib/soak/seat-resume.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

describe('seat resume: what a bot keeps to take its seat back', () => {
  it('offers the token after a drop, within the grace only', () => {
    const resume = new SeatResume();
    resume.joined('room:one');
    assert.equal(resume.current(0), undefined, 'no drop yet: an entry with the character');
    resume.dropped(1006, 1_000);
    assert.equal(resume.current(1_000 + RECONNECT_GRACE_MS - 1), 'room:one');
    assert.equal(resume.current(1_000 + RECONNECT_GRACE_MS), undefined, 'past the grace the seat is gone');
  });

  it('holds no seat after a consented close or a lost world, nor once a reconnection is refused for good', () => {
    const resume = new SeatResume();
    for (const code of [1000, 4012]) {
      resume.joined('room:two');
      resume.dropped(code, 0);
      assert.equal(resume.current(1), undefined, `close ${code}`);
    }
    resume.joined('room:three');
    resume.dropped(1012, 0);
    resume.refused('ALREADY_ONLINE');
    assert.equal(resume.current(1), 'room:three', 'the world has not yet seen the drop: try the token again');
    resume.refused('INVALID_RECONNECTION_TOKEN');
    assert.equal(resume.current(1), undefined);
  });

  it('a hop\'s world:joined replaces the token', () => {
    const resume = new SeatResume();
    resume.joined('room:a');
    resume.joined('room:b');
    resume.dropped(1006, 0);
    assert.equal(resume.current(1), 'room:b');
  });
});

describe('a soak bot whose connection drops', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it('is back in its seat at once with its reconnection token (an entry with the character is ALREADY_ONLINE)', async () => {
    const [seeded] = await seedCharacters(server.context.db, [{ role: 'trader', x: 107, z: 86, inventory: [], bank: [] }]);
    const bot = new Bot(seeded, server.context.auth.tokens.sign({ accountId: seeded.accountId, roles: ['player'], scope: 'player' }).token);
    const ctx = newSoakContext({ wsUrl: server.wsUrl, stopAt: Date.now() + 40_000, opTimeoutMs: 5_000 });
    assert.equal(await bot.connect(ctx, 0), true);
    const firstSession = bot.socket!;
    // A drop as the network would (no close handshake): the world holds the seat.
    firstSession.socket.terminate();
    for (let i = 0; i < 100 && !firstSession.isClosed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await bot.disconnect();

    const startedAt = Date.now();
    assert.equal(await bot.connect(ctx, 0), true);
    const took = Date.now() - startedAt;
    assert.ok(took < 5_000, `back after ${took} ms (an entry with the character waits for the seat to lapse, 20 s)`);
    const synced = await bot.request('bank:open', {}, (e) => e.type === 'bank:state', 5_000);
    assert.equal(synced.type, 'bank:state', 'the resumed session answers');
    await bot.disconnect();
  });
});
