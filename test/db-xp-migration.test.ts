/**
 * Migration…XpTenths (issue #38) on a database holding characters from before it: every `<skill>_xp` (whole points)
 * becomes `<skill>_xp_tenths` holding ten times the value, a new character starts at 11,540 constitution tenths, and
 * the way back restores the points. Runs on a fresh embedded database, or on a scratch database created on the
 * PostgreSQL server of DATABASE_URL (dropped afterwards).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../src/db/database.ts';
import { SKILLS } from '../src/game/skills.ts';
import { openTestDatabase } from './helpers/database.ts';
import { databaseUnderTest } from './helpers/server.ts';

const BEFORE = 'Migration20261128040000WorldLeases';
const XP_TENTHS = 'Migration20261201090000XpTenths';

describe(`the experience-in-tenths migration (${databaseUnderTest()}) @db`, function () {
  this.timeout(60_000);
  let db: Database;
  let dropScratch: (() => Promise<void>) | undefined;

  before(async () => {
    const url = process.env.DATABASE_URL;
    if (url) {
      const name = `xp_migration_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const admin = await openTestDatabase();
      await admin.em.getConnection().execute(`create database ${name}`);
      const scratch = new URL(url);
      scratch.pathname = `/${name}`;
      db = await openDatabase({ databaseUrl: scratch.toString(), pgliteDataDir: 'memory://', runMigrations: false, poolSize: 2 });
      dropScratch = async () => {
        await admin.em.getConnection().execute(`drop database if exists ${name}`);
        await admin.close();
      };
    } else {
      db = await openDatabase({ pgliteDataDir: 'memory://', runMigrations: false });
    }
  });
  after(async () => {
    await db?.close();
    await dropScratch?.();
  });

  const sql = <T extends Array<Record<string, unknown>> = Array<Record<string, unknown>>>(query: string, params: unknown[] = []) => db.em.getConnection().execute<T>(query, params);

  it('multiplies every stored experience by ten into the renamed columns, and back', async () => {
    await db.orm.migrator.up({ to: BEFORE });
    const userId = randomUUID();
    await sql(`insert into users (id, display_name, roles, created_at) values (?, ?, '[]', now())`, [userId, 'Old player']);
    // An old character: some whole points, the cap, and a value set by hand beyond it.
    const old = { attack_xp: 1157, prayer_xp: 84, woodcutting_xp: 200_000_000, mining_xp: 250_000_000 };
    const id = randomUUID();
    await sql(`insert into characters (id, account_id, name, created_at, ${Object.keys(old).join(', ')}) values (?, ?, ?, now(), ${Object.keys(old).map(() => '?').join(', ')})`,
      [id, userId, 'Oldtimer', ...Object.values(old)]);

    const applied = await db.orm.migrator.up();
    assert.deepEqual(applied.map((m) => m.name).slice(0, 1), [XP_TENTHS]);
    const [row] = await sql<Array<Record<string, unknown>>>(`select ${SKILLS.map((s) => `${s}_xp_tenths`).join(', ')} from characters where id = ?`, [id]);
    const tenths = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
    assert.equal(tenths.attack_xp_tenths, 11_570);
    assert.equal(tenths.prayer_xp_tenths, 840);
    assert.equal(tenths.constitution_xp_tenths, 11_540, 'the old default 1154, converted');
    assert.equal(tenths.woodcutting_xp_tenths, 2_000_000_000);
    assert.equal(tenths.mining_xp_tenths, 2_000_000_000, 'capped at 200 million points first (it fits the column)');
    assert.equal(tenths.strength_xp_tenths, 0);
    const oldColumns = await sql<Array<{ column_name: string }>>(
      `select column_name from information_schema.columns where table_name = 'characters' and column_name like '%\\_xp' escape '\\'`);
    assert.deepEqual(oldColumns, [], 'no <skill>_xp column is left to be read as points');

    const fresh = randomUUID();
    await sql('insert into characters (id, account_id, name, created_at) values (?, ?, ?, now())', [fresh, userId, 'Newcomer']);
    const [created] = await sql<Array<{ constitution_xp_tenths: number }>>('select constitution_xp_tenths from characters where id = ?', [fresh]);
    assert.equal(Number(created.constitution_xp_tenths), 11_540, 'a new row starts at constitution 10 in tenths');

    await db.orm.migrator.down({ to: BEFORE });
    const [back] = await sql<Array<Record<string, number>>>('select attack_xp, prayer_xp, constitution_xp from characters where id = ?', [id]);
    assert.deepEqual([Number(back.attack_xp), Number(back.prayer_xp), Number(back.constitution_xp)], [1157, 84, 1154]);
    await db.orm.migrator.up();
  });
});
