/**
 * The live-session sweep reads the accounts in chunks (SessionGuard.runSweep): on the embedded database a query runs
 * on the server's thread, and one query for a full world's sessions stalled its tick.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/database.ts';
import { User } from '../../src/db/entities/index.ts';
import { SessionGuard, SWEEP_CHUNK, type GuardedSession } from '../../src/auth/session-guard.ts';
import { createLogger } from '../../src/logger.ts';
import { openTestDatabase } from '../helpers/database.ts';
import { databaseUnderTest } from '../helpers/server.ts';

describe(`live-session sweep in chunks on ${databaseUnderTest()} @db`, function () {
  this.timeout(60_000);
  let db: Database;
  after(() => db?.close());

  it('checks every session, one query per chunk of sessions, and ends those whose account is gone', async () => {
    db = await openTestDatabase();
    const count = 2 * SWEEP_CHUNK + 50;
    const em = db.em.fork();
    const users = Array.from({ length: count }, (_, i) => em.create(User, { id: randomUUID(), displayName: `Sweeper ${i}`, roles: ['player'] }));
    await em.flush();
    const queried: number[] = [];
    const guard = new SessionGuard({
      logger: createLogger({ nodeEnv: 'test', logLevel: 'silent' }),
      checkIntervalMs: 60_000,
      em: () => {
        const fork = db.em.fork();
        const find = fork.find.bind(fork);
        fork.find = ((entity: unknown, where: { id: { $in: string[] } }, options: unknown) => {
          queried.push(where.id.$in.length);
          return find(entity as typeof User, where, options as never);
        }) as typeof fork.find;
        return fork;
      },
    });
    // The last account is deleted before the sweep: its session must end, wherever its chunk falls.
    const gone = users.at(-1)!;
    await db.em.fork().nativeDelete(User, { id: gone.id });
    const ended: string[] = [];
    const checked = new Set<string>();
    for (const user of users) {
      const session: GuardedSession = {
        identity: { accountId: user.id, roles: ['player'], scope: 'player', expiresAt: new Date(Date.now() + 3_600_000) },
        end: () => ended.push(user.id),
        rolesChanged: () => checked.add(user.id),
      };
      guard.register(session);
    }
    await guard.sweep();
    assert.deepEqual(queried, [SWEEP_CHUNK, SWEEP_CHUNK, 50]);
    assert.deepEqual(ended, [gone.id]);
    assert.equal(checked.size, count - 1, 'every other session was checked and kept');
    assert.equal(guard.size, count - 1);
  });
});
