/**
 * Keeps the PostgreSQL pool from losing its connections. Kysely (under MikroORM) releases a transaction's pooled
 * connection only when its COMMIT or ROLLBACK succeeds; when the connection itself dies mid-transaction (PostgreSQL
 * restarted, the network path dropped, or the session ended by `idle_in_transaction_session_timeout`) both fail,
 * and the connection stays checked out for ever. Each such death took one of the pool's slots: after as many as the
 * pool holds, every query of the process waited for a connection that would never come back (found by the chaos run,
 * docs/chaos.md). Here a connection that ends while checked out is handed back to the pool at once as broken (the
 * pool discards it and opens another when needed), and the later release by its holder, if any, does nothing.
 */

/** What this needs of `pg`'s pool and its clients (pg-pool's documented events and `release`). */
interface PoolClient {
  on(event: 'end', listener: () => void): unknown;
  release: (error?: Error) => void;
}
interface Pool {
  on(event: 'connect' | 'acquire' | 'remove', listener: (client: PoolClient) => void): unknown;
  on(event: 'release', listener: (error: Error | undefined, client: PoolClient) => void): unknown;
}

export function guardPool(pool: Pool): void {
  const checkedOut = new Set<PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('remove', (client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.on('end', () => {
      if (!checkedOut.has(client)) return;
      checkedOut.delete(client);
      const release = client.release;
      client.release = () => {};
      release(new Error('the database connection ended while in use'));
    });
  });
}
