/**
 * The chaos run's economy checks, from SQL (method: docs/soak.md "The totals check", and docs/chaos.md):
 * - during the run, in ONE statement (one snapshot): every character whose ledger only its trades change holds its
 *   seed plus the completed trades' net (traders), or exactly its seed (the walkers and the SDK bankers: bank moves
 *   stay within the character);
 * - at the end: the same, every acknowledged trade in `trade_audit` with the items the bot was told it received,
 *   the shoppers' exact ledgers (seed + acknowledged purchases and sales, ± the one in flight), each SDK banker's
 *   last acknowledged `bank:state` equal to the bank the database holds, `characters.coins` mirroring the
 *   inventory, and no death rows.
 */
import type { Database } from '../../../src/db/database.ts';
import type { AckedTrade, ShopperState } from '../soak/bots.ts';
import { inFlightExplains } from '../soak/bots.ts';
import {
  addTotals, auditRows, coinMirrorMismatches, deathRows, itemsTotals, ledgerOf, sameTotals, sortedTotals, type Totals,
} from '../soak/ledger.ts';
import type { Violations } from './violations.ts';

export interface LedgerSubjects {
  /** Seeded totals of every chaos character. */
  seeded: Map<string, Totals>;
  traders: string[];
  /** Characters whose totals never change (walkers, SDK bankers). */
  invariant: string[];
  names: Map<string, string>;
}

/** Per character: the held totals and the completed trades' net, read in one statement. */
async function snapshot(db: Database, ids: readonly string[]): Promise<{ held: Map<string, Totals>; traded: Map<string, Totals> }> {
  const list = ids.map(() => '?').join(', ');
  const sql = `
    with held as (
      select character_id as owner, item_id, quantity::bigint as n from inventory where character_id in (${list})
      union all select character_id, item_id, quantity from equipment where character_id in (${list})
      union all select character_id, item_id, quantity from bank_items where character_id in (${list})
      union all select owner_id, item_id, quantity from ground_items where owner_id in (${list})
      union all select d.character_id, i->>'itemId', (i->>'quantity')::bigint from player_deaths d, jsonb_array_elements(d.items) i
        where d.status = 'locked' and d.character_id in (${list})
    ), traded as (
      select t.initiator_id as owner, i->>'itemId' as item_id, -(i->>'quantity')::bigint as n from trade_audit t, jsonb_array_elements(t.initiator_items) i
        where t.status = 'completed' and t.initiator_id in (${list})
      union all select t.partner_id, i->>'itemId', (i->>'quantity')::bigint from trade_audit t, jsonb_array_elements(t.initiator_items) i
        where t.status = 'completed' and t.partner_id in (${list})
      union all select t.partner_id, i->>'itemId', -(i->>'quantity')::bigint from trade_audit t, jsonb_array_elements(t.partner_items) i
        where t.status = 'completed' and t.partner_id in (${list})
      union all select t.initiator_id, i->>'itemId', (i->>'quantity')::bigint from trade_audit t, jsonb_array_elements(t.partner_items) i
        where t.status = 'completed' and t.initiator_id in (${list})
    )
    select 'held' as source, owner, item_id, sum(n)::bigint as n from held group by 1, 2, 3
    union all select 'traded', owner, item_id, sum(n)::bigint from traded group by 1, 2, 3`;
  const params = Array.from({ length: 9 }, () => ids).flat();
  const rows = await db.em.fork().execute<Array<{ source: string; owner: string; item_id: string; n: string | number }>>(sql, params);
  const held = new Map<string, Totals>(ids.map((id) => [id, {}]));
  const traded = new Map<string, Totals>(ids.map((id) => [id, {}]));
  for (const row of rows) addTotals((row.source === 'held' ? held : traded).get(row.owner)!, { [row.item_id]: Number(row.n) });
  return { held, traded };
}

/** The mid-run check (and the first part of the final one); returns how many characters it checked. */
export async function checkLedgers(db: Database, subjects: LedgerSubjects, violations: Violations, when: string): Promise<number> {
  const ids = [...subjects.traders, ...subjects.invariant];
  const { held, traded } = await snapshot(db, ids);
  for (const id of ids) {
    const expected = addTotals({ ...subjects.seeded.get(id)! }, subjects.traders.includes(id) ? traded.get(id)! : {});
    if (!sameTotals(expected, held.get(id)!)) {
      violations.add('ledger', `${when}: ${subjects.names.get(id)} holds ${JSON.stringify(sortedTotals(held.get(id)!))}, its seed + completed trades give ${JSON.stringify(sortedTotals(expected))}`);
    }
  }
  return ids.length;
}

export interface FinalEconomy {
  trades: Map<string, AckedTrade>;
  shoppers: ShopperState[];
  sdkBanks: Array<{ id: string; bank: Array<{ itemId: string; quantity: number }> | null; uncertain: boolean }>;
}

export async function checkFinal(db: Database, subjects: LedgerSubjects, economy: FinalEconomy, violations: Violations): Promise<{ tradesInAudit: number; shopInFlightApplied: number }> {
  await checkLedgers(db, subjects, violations, 'at the end');
  const all = [...subjects.seeded.keys()];
  const audit = await auditRows(db, subjects.traders);
  const completed = new Map(audit.filter((r) => r.status === 'completed').map((r) => [r.id, r]));
  for (const t of economy.trades.values()) {
    const row = completed.get(t.tradeId);
    if (!row) {
      violations.add('acknowledged-missing', `trade ${t.tradeId} was acknowledged (tradeCompleted) but is not completed in trade_audit`);
      continue;
    }
    for (const [who, received] of t.received) {
      const expected = who === row.initiatorId ? itemsTotals(row.partnerItems) : itemsTotals(row.initiatorItems);
      if (!sameTotals(expected, received)) violations.add('acknowledged-missing', `trade ${t.tradeId}: ${subjects.names.get(who)} was told it received ${JSON.stringify(received)}, the audit says ${JSON.stringify(expected)}`);
    }
  }
  const after = await ledgerOf(db, all);
  let shopInFlightApplied = 0;
  for (const s of economy.shoppers) {
    shopInFlightApplied += s.inFlightApplied;
    const held = after.get(s.bot.id)!;
    const diff = sortedTotals(addTotals({ ...held }, s.expected, -1));
    if (Object.keys(diff).length > 0 && !inFlightExplains(diff, s.inFlight)) {
      violations.add('acknowledged-missing', `shopper ${s.bot.me.name}: holds ${JSON.stringify(held)}, its seed + acknowledged purchases and sales give ${JSON.stringify(s.expected)}`);
    }
  }
  for (const banker of economy.sdkBanks) {
    if (banker.bank === null || banker.uncertain) continue;
    const rows = await db.em.fork().execute<Array<{ item_id: string; n: string | number }>>(
      'select item_id, sum(quantity)::bigint as n from bank_items where character_id = ? group by 1', [banker.id]);
    const inDb = sortedTotals(Object.fromEntries(rows.map((r) => [r.item_id, Number(r.n)])));
    const seen: Totals = {};
    for (const item of banker.bank) addTotals(seen, { [item.itemId]: item.quantity });
    if (!sameTotals(inDb, seen)) violations.add('acknowledged-missing', `SDK banker ${subjects.names.get(banker.id)}: its last acknowledged bank:state holds ${JSON.stringify(sortedTotals(seen))}, the database ${JSON.stringify(inDb)}`);
  }
  for (const mismatch of await coinMirrorMismatches(db, all)) violations.add('ledger', `coins column: ${mismatch}`);
  const deaths = await deathRows(db, all);
  if (deaths > 0) violations.add('ledger', `${deaths} player_deaths rows for chaos characters (no bot fights)`);
  return { tradesInAudit: completed.size, shopInFlightApplied };
}
