/**
 * The soak's database side: seeding the characters (before the server owns the database) and the SQL checks at
 * the end. Item totals of a set of characters are read over inventory + equipment + bank_items + the ground items
 * they own (+ items locked in an open death row, which the soak never creates but would count).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../src/db/database.ts';
import { runItemTransaction, type Containers } from '../../../src/db/item-transaction.ts';
import type { Bank } from '../../../src/game/bank.ts';
import { emptyBank } from '../../../src/game/bank.ts';
import { emptyEquipment } from '../../../src/game/equipment.ts';
import { emptyInventory, type InventoryItem } from '../../../src/game/inventory.ts';

export type Totals = Record<string, number>;

export interface SeedSpec {
  role: 'trader' | 'shopper';
  x: number;
  z: number;
  inventory: InventoryItem[];
  bank: Array<{ itemId: string; quantity: number }>;
}

export interface SeededCharacter {
  role: 'trader' | 'shopper';
  characterId: string;
  accountId: string;
  name: string;
}

/** One account per character (two characters of one account may not trade with each other). */
export async function seedCharacters(db: Database, specs: readonly SeedSpec[]): Promise<SeededCharacter[]> {
  const run = randomUUID().replace(/-/g, '').slice(0, 6);
  const connection = db.em.getConnection();
  const out: SeededCharacter[] = [];
  for (const [i, spec] of specs.entries()) {
    const accountId = randomUUID();
    const characterId = randomUUID();
    const name = `S${run}${i.toString(36)}`;
    await connection.execute(`insert into users (id, display_name, roles, is_temporary, created_at) values (?, ?, '["player"]', false, now())`, [accountId, name]);
    await connection.execute(
      'insert into characters (id, account_id, name, position_x, position_z, created_at, last_login_at) values (?, ?, ?, ?, ?, now(), now())',
      [characterId, accountId, name, spec.x, spec.z],
    );
    await runItemTransaction(db, [characterId], async () => {
      const inventory = [...emptyInventory()];
      spec.inventory.forEach((item, slot) => (inventory[slot] = item));
      const bank: Bank = spec.bank.length === 0 ? emptyBank() : { tabs: [{ name: 'main', items: spec.bank.map((b) => ({ ...b })) }] };
      const after: Containers = { inventory, equipment: emptyEquipment(), bank };
      return { value: null, write: new Map([[characterId, after]]) };
    }, { bank: true });
    out.push({ role: spec.role, characterId, accountId, name });
  }
  return out;
}

async function rows(db: Database, sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
  return db.em.fork().execute<Array<Record<string, unknown>>>(sql, params);
}

function addTo(totals: Totals, itemId: string, n: number): void {
  totals[itemId] = (totals[itemId] ?? 0) + n;
  if (totals[itemId] === 0) delete totals[itemId];
}

export function sortedTotals(totals: Totals): Totals {
  return Object.fromEntries(Object.entries(totals).filter(([, n]) => n !== 0).sort(([a], [b]) => a.localeCompare(b)));
}

export function sameTotals(a: Totals, b: Totals): boolean {
  return JSON.stringify(sortedTotals(a)) === JSON.stringify(sortedTotals(b));
}

export function addTotals(target: Totals, delta: Totals, sign = 1): Totals {
  for (const [id, n] of Object.entries(delta)) addTo(target, id, sign * n);
  return target;
}

/** Per character: item id → quantity over inventory, equipment, bank, owned ground items and locked death rows. */
export async function ledgerOf(db: Database, characterIds: readonly string[]): Promise<Map<string, Totals>> {
  const out = new Map<string, Totals>(characterIds.map((id) => [id, {}]));
  if (characterIds.length === 0) return out;
  const list = characterIds.map(() => '?').join(', ');
  const sources = [
    `select character_id as owner, item_id, sum(quantity)::bigint as n from inventory where character_id in (${list}) group by 1, 2`,
    `select character_id as owner, item_id, sum(quantity)::bigint as n from equipment where character_id in (${list}) group by 1, 2`,
    `select character_id as owner, item_id, sum(quantity)::bigint as n from bank_items where character_id in (${list}) group by 1, 2`,
    `select owner_id as owner, item_id, sum(quantity)::bigint as n from ground_items where owner_id in (${list}) group by 1, 2`,
  ];
  for (const sql of sources) {
    for (const r of await rows(db, sql, [...characterIds])) addTo(out.get(String(r.owner))!, String(r.item_id), Number(r.n));
  }
  for (const r of await rows(db, `select character_id, items from player_deaths where status = 'locked' and character_id in (${list})`, [...characterIds])) {
    const items = (typeof r.items === 'string' ? JSON.parse(r.items) : r.items) as InventoryItem[];
    for (const i of items) addTo(out.get(String(r.character_id))!, i.itemId, i.quantity);
  }
  for (const [id, t] of out) out.set(id, sortedTotals(t));
  return out;
}

export function sumTotals(ledgers: Iterable<Totals>): Totals {
  const total: Totals = {};
  for (const t of ledgers) addTotals(total, t);
  return sortedTotals(total);
}

export interface AuditRow {
  id: string;
  initiatorId: string;
  partnerId: string;
  status: string;
  initiatorItems: Array<{ itemId: string; quantity: number }>;
  partnerItems: Array<{ itemId: string; quantity: number }>;
}

/** trade_audit rows in which any of these characters took part. */
export async function auditRows(db: Database, characterIds: readonly string[]): Promise<AuditRow[]> {
  const list = characterIds.map(() => '?').join(', ');
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v ?? []);
  return (await rows(db, `select id, initiator_id, partner_id, status, initiator_items, partner_items from trade_audit
    where initiator_id in (${list}) or partner_id in (${list})`, [...characterIds, ...characterIds])).map((r) => ({
    id: String(r.id), initiatorId: String(r.initiator_id), partnerId: String(r.partner_id), status: String(r.status),
    initiatorItems: json(r.initiator_items), partnerItems: json(r.partner_items),
  }));
}

/** Items of a trade's side as totals. */
export function itemsTotals(items: ReadonlyArray<{ itemId: string; quantity: number }>): Totals {
  const t: Totals = {};
  for (const i of items) addTo(t, i.itemId, Number(i.quantity));
  return t;
}

/** Characters whose `characters.coins` differs from the coins in their inventory. */
export async function coinMirrorMismatches(db: Database, characterIds: readonly string[]): Promise<string[]> {
  const list = characterIds.map(() => '?').join(', ');
  const found = await rows(db, `select c.id, c.coins, coalesce((select sum(i.quantity) from inventory i where i.character_id = c.id and i.item_id = 'coins'), 0) as held
    from characters c where c.id in (${list})`, [...characterIds]);
  return found.filter((r) => Number(r.coins) !== Number(r.held)).map((r) => `${String(r.id)}: coins column ${Number(r.coins)} ≠ inventory ${Number(r.held)}`);
}

export async function deathRows(db: Database, characterIds: readonly string[]): Promise<number> {
  const list = characterIds.map(() => '?').join(', ');
  const [r] = await rows(db, `select count(*)::int as n from player_deaths where character_id in (${list})`, [...characterIds]);
  return Number(r.n);
}
