import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Database } from '../src/db/database.ts';
import { Character, User } from '../src/db/entities/index.ts';
import { runItemTransaction, type Containers } from '../src/db/item-transaction.ts';
import { emptyEquipment } from '../src/game/equipment.ts';
import { emptyInventory, type Inventory } from '../src/game/inventory.ts';
import { GameError } from '../src/game/refusal.ts';
import { openTestDatabase, uniqueName } from './helpers/database.ts';
import { databaseUnderTest } from './helpers/server.ts';

function withSlot(inventory: Inventory, slot: number, item: { itemId: string; quantity: number } | null): Inventory {
  const next = [...inventory];
  next[slot] = item;
  return next;
}

describe(`item transactions on ${databaseUnderTest()} @db`, function () {
  this.timeout(60_000);
  let db: Database;
  let a: string;
  let b: string;

  before(async () => {
    db = await openTestDatabase();
    const em = db.em.fork();
    const user = em.create(User, { id: randomUUID(), displayName: 'Items' });
    a = em.create(Character, { id: randomUUID(), accountId: user.id, name: uniqueName('a') }).id;
    b = em.create(Character, { id: randomUUID(), accountId: user.id, name: uniqueName('b') }).id;
    await em.flush();
    await runItemTransaction(db, [a, b], async (_tx, loaded) => ({
      value: null,
      write: new Map<string, Containers>([
        [a, { inventory: withSlot(loaded.get(a)!.inventory, 0, { itemId: 'coins', quantity: 500 }), equipment: emptyEquipment() }],
        [b, { inventory: withSlot(loaded.get(b)!.inventory, 3, { itemId: 'coins', quantity: 500 }), equipment: { ...emptyEquipment(), head: { itemId: 'bronze_helm', quantity: 1 } } }],
      ]),
    }));
  });
  after(() => db?.close());

  async function coinsOf(id: string): Promise<number> {
    const [row] = await db.em.getConnection().execute('select coalesce(sum(quantity), 0)::int as n from inventory where character_id = ? and item_id = ?', [id, 'coins']);
    return row.n;
  }

  it('writes only what changed and reads it back from the database', async () => {
    const { containers } = await runItemTransaction(db, [b], async () => ({ value: null, write: new Map() }));
    assert.deepEqual(containers.get(b)!.inventory[3], { itemId: 'coins', quantity: 500 });
    assert.deepEqual(containers.get(b)!.equipment.head, { itemId: 'bronze_helm', quantity: 1 });
    assert.equal(containers.get(b)!.inventory.filter(Boolean).length, 1);
  });

  it('rolls back every write when the work refuses', async () => {
    await assert.rejects(runItemTransaction(db, [a], async (tx, loaded) => {
      await tx.execute('update characters set coins = 999 where id = ?', [a]);
      void loaded;
      throw new GameError('NOPE', 'refused on purpose');
    }), (error: unknown) => error instanceof GameError && error.code === 'NOPE');
    const [row] = await db.em.getConnection().execute('select coins from characters where id = ?', [a]);
    assert.equal(row.coins, 500, 'the coins mirror keeps its committed value');
    assert.equal(await coinsOf(a), 500);
  });

  it('keeps totals exact under many concurrent transfers in both directions', async () => {
    const transfer = (from: string, to: string, amount: number) => runItemTransaction(db, [from, to], async (_tx, loaded) => {
      const source = loaded.get(from)!;
      const target = loaded.get(to)!;
      const fromSlot = source.inventory.findIndex((s) => s?.itemId === 'coins');
      const toSlot = target.inventory.findIndex((s) => s?.itemId === 'coins');
      const have = fromSlot >= 0 ? source.inventory[fromSlot]!.quantity : 0;
      if (have < amount) throw new GameError('NOT_ENOUGH_ITEMS', 'not enough coins');
      const left = have - amount;
      const targetSlot = toSlot >= 0 ? toSlot : target.inventory.findIndex((s) => s === null);
      const targetHas = toSlot >= 0 ? target.inventory[toSlot]!.quantity : 0;
      return {
        value: null,
        write: new Map<string, Containers>([
          [from, { ...source, inventory: withSlot(source.inventory, fromSlot, left > 0 ? { itemId: 'coins', quantity: left } : null) }],
          [to, { ...target, inventory: withSlot(target.inventory, targetSlot, { itemId: 'coins', quantity: targetHas + amount }) }],
        ]),
      };
    });
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => (i % 2 ? transfer(a, b, 7) : transfer(b, a, 5))));
    const unexpected = results.filter((r) => r.status === 'rejected' && !(r.reason instanceof GameError));
    assert.deepEqual(unexpected, []);
    assert.equal((await coinsOf(a)) + (await coinsOf(b)), 1000);
  });

  it('reads what the transaction it waited for committed (the lock is taken before the read)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let lockHeld!: () => void;
    const locked = new Promise<void>((resolve) => (lockHeld = resolve));
    const first = runItemTransaction(db, [a], async (_tx, loaded) => {
      lockHeld();
      await held;
      return { value: null, write: new Map([[a, { ...loaded.get(a)!, inventory: withSlot(loaded.get(a)!.inventory, 20, { itemId: 'feather', quantity: 9 }) }]]) };
    });
    await locked;
    const second = runItemTransaction(db, [a], async (_tx, loaded) => ({ value: loaded.get(a)!.inventory[20], write: new Map() }));
    if (databaseUnderTest() === 'postgresql') {
      // Bounded wait until the second transaction is really blocked on the first one's row lock.
      const deadline = Date.now() + 5_000;
      let waiting = 0;
      while (waiting === 0 && Date.now() < deadline) {
        const [row] = await db.em.fork().getConnection().execute(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        waiting = row.n;
      }
      assert.ok(waiting > 0, 'the second transaction waits for the lock');
    }
    release();
    await first;
    assert.deepEqual((await second).value, { itemId: 'feather', quantity: 9 });
    await runItemTransaction(db, [a], async (_tx, loaded) => ({ value: null, write: new Map([[a, { ...loaded.get(a)!, inventory: withSlot(loaded.get(a)!.inventory, 20, null) }]]) }));
  });

  it('writes alsoWrite rows in the same statement as the containers: one failing undoes both', async () => {
    const auditId = randomUUID();
    const audit = (id: string) => ({
      sql: `insert into trade_audit (id, initiator_id, partner_id, status, reason, initiator_items, partner_items, started_at, ended_at)
            values (?, ?, ?, 'completed', null, '[]', '[]', now(), now())`,
      params: [id, a, b],
    });
    const give = (id: string) => runItemTransaction(db, [a, b], async (_tx, loaded) => ({
      value: null,
      write: new Map([[a, { ...loaded.get(a)!, inventory: withSlot(loaded.get(a)!.inventory, 21, { itemId: 'feather', quantity: 1 }) }]]),
      alsoWrite: [audit(id)],
    }));
    await give(auditId);
    await runItemTransaction(db, [a], async (_tx, loaded) => ({ value: null, write: new Map([[a, { ...loaded.get(a)!, inventory: withSlot(loaded.get(a)!.inventory, 21, null) }]]) }));
    await assert.rejects(give(auditId), 'a second row with the same id violates the primary key');
    const [row] = await db.em.getConnection().execute('select count(*)::int as n from inventory where character_id = ? and slot = 21', [a]);
    assert.equal(row.n, 0, 'the container write rolled back with the failed audit row');
    const [rows] = await db.em.getConnection().execute('select count(*)::int as n from trade_audit where id = ?', [auditId]);
    assert.equal(rows.n, 1);
  });
});
