/**
 * A process stalled in the middle of a transaction (a long GC pause, SIGSTOP, a frozen VM) must not keep a world's
 * row locked for as long as it is stalled: every takeover of the world waits on that lock. The server opens its
 * PostgreSQL connections with `idle_in_transaction_session_timeout` (src/db/database.ts, the lease time in
 * src/server.ts), so PostgreSQL itself ends such a session, rolls its transaction back and frees the lock. Here on a
 * scratch database of the local PostgreSQL: a transaction holds a row `FOR SHARE` and then waits on nothing (as a
 * stalled process would); another connection's update of the row gets through once the limit has passed, and the
 * stalled transaction's commit is refused. A transaction whose connection dies must also give its pool slot back
 * (src/db/pool-guard.ts): four of them on a pool of two, then a query, which never ran before the guard.
 */
import assert from 'node:assert/strict';
import type { ScratchDatabase } from '../../loadtest/lib/postgres.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { scratchPostgres } from '../helpers/two-processes.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a transaction left idle by a stalled process (PostgreSQL)', function () {
  this.timeout(60_000);
  let scratch: ScratchDatabase | undefined;
  const opened: Database[] = [];

  before(async function () {
    scratch = await scratchPostgres('stalled-transaction');
    if (!scratch) return this.skip();
  });

  after(async () => {
    await Promise.all(opened.map((db) => Promise.race([db.close().catch(() => undefined), sleep(5_000)])));
    await scratch?.drop();
  });

  async function open(idleInTransactionMs?: number): Promise<Database> {
    const db = await openDatabase({ databaseUrl: scratch!.url, pgliteDataDir: 'memory://', idleInTransactionMs, poolSize: 2 });
    opened.push(db);
    return db;
  }

  /** How long an update of a row another connection holds FOR SHARE and then leaves idle waits, and whether the holder could commit. */
  async function takeoverAfterStall(holder: Database, other: Database, world: number): Promise<{ waitedMs: number; holderCommitted: boolean }> {
    await other.em.getConnection().execute('insert into worlds (number, room_id, process_id, epoch, lease_until) values (?, ?, ?, ?, now())', [world, `r${world}`, 'p1', world]);
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.em.fork().transactional(async (em) => {
      await em.getConnection().execute('select number from worlds where number = ? for share', [world], 'all', em.getTransactionContext());
      locked();
      await sleep(4_000);
    }).then(() => true, () => false);
    await isLocked;
    const started = Date.now();
    await other.em.getConnection().execute('update worlds set epoch = epoch + 100 where number = ?', [world]);
    return { waitedMs: Date.now() - started, holderCommitted: await holding };
  }

  it('ends the stalled session within the limit, so the takeover goes through and the stalled commit is refused', async () => {
    const { waitedMs, holderCommitted } = await takeoverAfterStall(await open(1_000), await open(), 9_001);
    assert.ok(waitedMs < 3_000, `the update waited ${waitedMs} ms`);
    assert.equal(holderCommitted, false);
  });

  it('keeps its pool whole when transactions lose their connections (each used to hold a pool slot for ever)', async () => {
    const db = await open(500);
    const outcomes: string[] = [];
    // Four transactions whose sessions PostgreSQL ends, on a pool of two: without the guard the third never starts.
    for (let i = 0; i < 4; i++) {
      const outcome = db.em.fork().transactional(async (em) => {
        await em.getConnection().execute('select 1', [], 'all', em.getTransactionContext());
        await sleep(1_200);
      }).then(() => 'committed', () => 'refused');
      outcomes.push(await Promise.race([outcome, sleep(8_000).then(() => 'never started')]));
    }
    assert.deepEqual(outcomes, ['refused', 'refused', 'refused', 'refused']);
    const [row] = await db.em.getConnection().execute<Array<{ x: number }>>('select 1 as x');
    assert.equal(row.x, 1);
  });

  it('without the limit, the takeover waits as long as the holder is stalled', async () => {
    const { waitedMs, holderCommitted } = await takeoverAfterStall(await open(), await open(), 9_002);
    assert.ok(waitedMs >= 3_500, `the update waited ${waitedMs} ms`);
    assert.equal(holderCommitted, true);
  });
});
