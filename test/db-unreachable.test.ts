/** Telling a database that cannot be reached from a statement that failed (src/db/unreachable.ts). */
import assert from 'node:assert/strict';
import net from 'node:net';
import { openDatabase } from '../src/db/database.ts';
import { isDatabaseUnreachable } from '../src/db/unreachable.ts';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('database: unreachable or failed', () => {
  it('a PostgreSQL nobody answers at is unreachable; a refused statement is not', async () => {
    const port = await closedPort();
    const opened = openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/none`, pgliteDataDir: 'memory://', runMigrations: false, poolSize: 1 })
      .then(async (db) => {
        try {
          await db.em.getConnection().execute('select 1');
        } finally {
          await db.close().catch(() => {});
        }
      });
    const error = await opened.then(() => undefined, (e: unknown) => e);
    assert.ok(error, 'connecting failed');
    assert.equal(isDatabaseUnreachable(error), true, String(error));
    assert.equal(isDatabaseUnreachable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })), false);
    assert.equal(isDatabaseUnreachable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), true);
    assert.equal(isDatabaseUnreachable(new Error('x', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) })), true);
    assert.equal(isDatabaseUnreachable(new TypeError('cannot read properties of undefined')), false);
  });
});
