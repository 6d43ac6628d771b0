/**
 * A stalled world process must not come back as a second copy of its world (#34, the fencing contract in
 * docs/scaling.md): process A runs world 1 with player X; A is paused (SIGSTOP, standing in for a long GC pause or a
 * frozen VM) until process B has taken world 1 over and X has entered again through B; then A resumes. Afterwards
 * there is one world 1 (SQL and both /status), X is in it once, X's old session on A was closed with 4012 within
 * WORLD_LEASE_SECONDS + 5 s of A's resumption, and the old session answered nothing once the new one had joined
 * (it is probed with `player:move` all along: a `player:path` answer proves a session is live). Needs Redis at
 * 127.0.0.1:6379 and PostgreSQL (DATABASE_URL, or a scratch database on the local server).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { anonymousAccount } from '../helpers/players.ts';
import type { ServerProcess } from '../helpers/process.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { startTwoProcesses, type TwoProcesses } from '../helpers/two-processes.ts';

/** The lease time the cluster runs with (ignored by a server that has no leases). */
const LEASE_SECONDS = 3;
/** docs/scaling.md: a process that lost its lease closes the world's sessions with this code. */
const WORLD_LOST = 4012;
/** How long the takeover through B may take (today's code: a 20 s hand-over timeout, then a 2 s health check). */
const TAKEOVER_WITHIN_MS = 90_000;

interface StatusWorld { world: number; players: number; lease?: string }

describe('a stalled world process (SIGSTOP) is fenced: one world 1, one session of its player @db', function () {
  this.timeout(240_000);
  let cluster: TwoProcesses | undefined;
  let a: ServerProcess;
  let b: ServerProcess;
  const sockets: JsonWsClient[] = [];

  before(async function () {
    cluster = await startTwoProcesses('world-stall', { WORLDS_MIN: '1', WORLD_LEASE_SECONDS: String(LEASE_SECONDS) });
    if (!cluster) return this.skip();
    [a, b] = cluster.servers;
  });

  after(async () => {
    // A stopped process ignores SIGTERM until it runs again: resume it whatever happened.
    if (a && a.child.exitCode === null) a.child.kill('SIGCONT');
    for (const socket of sockets) socket.socket.terminate();
    await cluster?.stop();
  });

  const wsUrl = (server: ServerProcess) => `ws://127.0.0.1:${server.port}`;

  async function status(server: ServerProcess): Promise<StatusWorld[]> {
    const body = await fetch(`${server.baseUrl}/status`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.json()) as { worlds: StatusWorld[] };
    return body.worlds;
  }

  /** One attempt to enter world 1 through `entry`: its socket and `world:joined`, or undefined (refused, closed, no answer). */
  async function enterWorld1(entry: ServerProcess, token: string, characterId: string): Promise<{ ws: JsonWsClient; roomId: string } | undefined> {
    const ws = await JsonWsClient.connect(wsUrl(entry)).catch(() => undefined);
    if (!ws) return undefined;
    sockets.push(ws);
    const closed = ws.closed.then(() => undefined);
    ws.send('authenticate', { token });
    const auth = await Promise.race([ws.waitFor('authResult', () => true, 10_000).catch(() => undefined), closed]);
    if (!auth?.data.success) return undefined;
    ws.send('world:enter', { characterId, world: 1 });
    const outcome = await Promise.race([
      ws.waitFor('world:joined', () => true, 30_000).catch(() => undefined),
      ws.waitFor('error', () => true, 30_000).then(() => undefined, () => undefined),
      closed,
    ]);
    if (outcome) return { ws, roomId: outcome.data.roomId as string };
    ws.socket.terminate();
    return undefined;
  }

  it('A resumes after B took world 1 over: A\'s copy is gone, X\'s old session closed with 4012 and silent', async () => {
    assert.deepEqual((await status(a)).map((w) => w.world), [1], 'the first process runs the standing world');
    const account = await anonymousAccount({ baseUrl: a.baseUrl } as never);
    const x = await cluster!.character(account.accountId, { x: 120, z: 96 });

    const old = await enterWorld1(a, account.token, x);
    assert.ok(old, 'X entered world 1 on A');
    // The old session is probed all along: every player:path it answers is recorded with the time it arrived.
    const oldAnswers: number[] = [];
    old.ws.socket.on('message', (raw) => {
      if ((JSON.parse(raw.toString()) as { type: string }).type === 'player:path') oldAnswers.push(Date.now());
    });
    let step = 0;
    const probe = setInterval(() => {
      if (old.ws.socket.readyState !== old.ws.socket.OPEN) return;
      step += 1;
      old.ws.send('player:move', { x: 120 + (step % 2), z: 96 });
    }, 500);
    let oldClose: { code: number; at: number } | undefined;
    void old.ws.closed.then(({ code }) => (oldClose = { code, at: Date.now() }));

    try {
      await sleep(1_500);
      assert.ok(oldAnswers.length > 0, 'the probe is answered while A runs');

      a.child.kill('SIGSTOP');
      // One ordinary REST call through B for X's world: forwarded to the stalled A (today: a 503 and a health check).
      const rest = await fetch(`${b.baseUrl}/api/v1/world`, { headers: { Authorization: `Bearer ${account.token}` }, signal: AbortSignal.timeout(20_000) })
        .then((r) => r.status, (error: Error) => error.name);
      let again: { ws: JsonWsClient; roomId: string } | undefined;
      const deadline = Date.now() + TAKEOVER_WITHIN_MS;
      for (let attempt = 0; attempt < 200 && !again && Date.now() < deadline; attempt++) {
        again = await enterWorld1(b, account.token, x);
        if (!again) await sleep(1_000);
      }
      assert.ok(again, `X entered world 1 again through B while A was stopped (the REST call through B answered ${rest})`);
      const newJoinedAt = Date.now();

      a.child.kill('SIGCONT');
      const resumedAt = Date.now();
      // The bound: a resumed process learns its lease is gone at its first renewal; WORLD_LEASE_SECONDS + 5 s.
      const boundMs = (LEASE_SECONDS + 5) * 1000;
      while (!oldClose && Date.now() < resumedAt + boundMs) await sleep(100);
      // A little longer, so that a session that was not closed shows whether it still answers.
      await sleep(2_000);

      const rows = await cluster!.db.em.getConnection().execute<Array<{ room_id: string }>>('select room_id from worlds where number = 1');
      const claims = await cluster!.db.em.getConnection().execute<Array<{ world: number; room_id: string }>>(
        'select world, room_id from character_worlds where character_id = ?', [x]);
      const live = async (server: ServerProcess, name: string) => (await status(server))
        .filter((w) => w.world === 1 && w.lease !== 'suspended').map((w) => ({ on: name, players: w.players }));
      const held = [...await live(a, 'A'), ...await live(b, 'B')];
      const observed = {
        world1InSql: rows.map((row) => row.room_id === again.roomId ? 'the room X entered through B' : row.room_id),
        world1LiveOn: held,
        claimsOfX: claims.map((c) => ({ world: Number(c.world), room: c.room_id === again.roomId ? 'the room X entered through B' : c.room_id })),
        oldSessionClosed: oldClose ? { code: oldClose.code, withinBound: oldClose.at <= resumedAt + boundMs } : 'still open',
        oldSessionAnswersAfterNewJoin: oldAnswers.filter((at) => at > newJoinedAt).length,
      };
      assert.deepEqual(observed, {
        world1InSql: ['the room X entered through B'],
        world1LiveOn: [{ on: 'B', players: 1 }],
        claimsOfX: [{ world: 1, room: 'the room X entered through B' }],
        oldSessionClosed: { code: WORLD_LOST, withinBound: true },
        oldSessionAnswersAfterNewJoin: 0,
      }, 'one world 1, X in it once, its old session on A closed with 4012 and silent');
    } finally {
      clearInterval(probe);
    }
  });
});
