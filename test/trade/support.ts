/** Helpers for the trade suites: players with items in the database, an open trade, inventories read by SQL. */
import assert from 'node:assert/strict';
import type { Database } from '../../src/db/database.ts';
import type { ItemMetadata } from '../../src/game/inventory.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer, type TestAccount } from '../helpers/players.ts';
import type { TestServer } from '../helpers/server.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';

export interface SlotItem {
  slot: number;
  itemId: string;
  quantity: number;
  metadata?: ItemMetadata;
}

export interface Trader {
  id: string;
  name: string;
  account: TestAccount;
  ws: JsonWsClient;
}

/** Puts items into a character's inventory rows (before it enters the world, or to simulate an outside change). */
export async function putItems(db: Database, characterId: string, items: readonly SlotItem[]): Promise<void> {
  const em = db.em.fork();
  for (const item of items) {
    await em.execute(
      `insert into inventory (character_id, slot, item_id, quantity, metadata) values (?, ?, ?, ?, ?)
       on conflict (character_id, slot) do update set item_id = excluded.item_id, quantity = excluded.quantity, metadata = excluded.metadata`,
      [characterId, item.slot, item.itemId, item.quantity, item.metadata ? JSON.stringify(item.metadata) : null],
    );
  }
}

/** A character with these items, placed at the tile, entered into the world over /ws. */
export async function trader(server: TestServer, at: { x: number; z: number }, items: readonly SlotItem[] = []): Promise<Trader> {
  const account = await anonymousAccount(server);
  const character = await createCharacterRow(server, account.accountId, at);
  await putItems(server.context.db, character.id, items);
  const ws = await jsonPlayer(server, account, character.id);
  return { id: character.id, name: character.name, account, ws };
}

/** Two traders next to each other on a walkable row (pairs may share tiles; only partners' distance matters). */
export async function traderPair(server: TestServer, itemsA: readonly SlotItem[] = [], itemsB: readonly SlotItem[] = []): Promise<[Trader, Trader]> {
  return Promise.all([trader(server, { x: 120, z: 96 }, itemsA), trader(server, { x: 121, z: 96 }, itemsB)]);
}

/** a asks b, b accepts; resolves with the trade id once both saw tradeStarted. */
export async function openTrade(a: Trader, b: Trader): Promise<string> {
  const incoming = b.ws.next('tradeIncoming', (d) => d.fromPlayerId === a.id);
  a.ws.send('tradeRequest', { targetPlayerId: b.id });
  const { data } = await incoming;
  const startedA = a.ws.next('tradeStarted', (d) => d.tradeId === data.tradeId);
  const startedB = b.ws.next('tradeStarted', (d) => d.tradeId === data.tradeId);
  b.ws.send('tradeRequestRespond', { tradeId: data.tradeId, accept: true });
  const [sa, sb] = await Promise.all([startedA, startedB]);
  assert.equal(sa.data.partnerId, b.id);
  assert.equal(sb.data.partnerId, a.id);
  assert.equal(typeof sa.data.roomId, 'string');
  return data.tradeId;
}

/** Sends an event and resolves with the next event of `type` the sender receives. */
export function sendAndWait(t: Trader, type: string, data: unknown, answer: string, match: (d: any) => boolean = () => true) { // eslint-disable-line @typescript-eslint/no-explicit-any
  const next = t.ws.next(answer, match);
  t.ws.send(type, data);
  return next;
}

/** Sends an event expected to be refused; resolves with the tradeError's code. */
export async function refusal(t: Trader, type: string, data: unknown): Promise<string> {
  const error = await sendAndWait(t, type, data, 'tradeError');
  return error.data.code;
}

/** Adds an item and waits until both players saw the offer change. */
export async function addItem(tradeId: string, actor: Trader, partner: Trader, inventorySlot: number, quantity: number): Promise<void> {
  const seenByPartner = partner.ws.next('tradeUpdated');
  await sendAndWait(actor, 'tradeAddItem', { tradeId, inventorySlot, quantity }, 'tradeUpdated');
  await seenByPartner;
}

/** Both accept on screen 1 → tradeConfirmScreen to both. */
export async function bothAcceptScreen1(tradeId: string, a: Trader, b: Trader): Promise<void> {
  const confirmA = a.ws.next('tradeConfirmScreen');
  const confirmB = b.ws.next('tradeConfirmScreen');
  a.ws.send('tradeAccept', { tradeId });
  await b.ws.next('tradeUpdated', (d) => d.theirOffer.accepted === true);
  b.ws.send('tradeAccept', { tradeId });
  await Promise.all([confirmA, confirmB]);
}

export interface InventoryRow {
  slot: number;
  item_id: string;
  quantity: number;
  metadata: ItemMetadata | null;
}

export async function inventoryRows(db: Database, characterId: string): Promise<InventoryRow[]> {
  const rows = await db.em.fork().execute<Array<InventoryRow & { metadata: ItemMetadata | string | null }>>(
    'select slot, item_id, quantity, metadata from inventory where character_id = ? order by slot', [characterId]);
  return rows.map((r) => ({ ...r, quantity: Number(r.quantity), metadata: typeof r.metadata === 'string' ? JSON.parse(r.metadata) : r.metadata }));
}

/** Item id → total quantity over the characters' inventories (SQL). */
export async function itemTotals(db: Database, characterIds: readonly string[]): Promise<Record<string, number>> {
  const placeholders = characterIds.map(() => '?').join(', ');
  const rows = await db.em.fork().execute<Array<{ item_id: string; total: string | number }>>(
    `select item_id, sum(quantity) as total from inventory where character_id in (${placeholders}) group by item_id order by item_id`, [...characterIds]);
  return Object.fromEntries(rows.map((r) => [r.item_id, Number(r.total)]));
}

export async function auditRow(db: Database, tradeId: string): Promise<Record<string, any> | undefined> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const rows = await db.em.fork().execute<Array<Record<string, unknown>>>('select * from trade_audit where id = ?', [tradeId]);
  const row = rows[0];
  if (!row) return undefined;
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return { ...row, initiator_items: json(row.initiator_items), partner_items: json(row.partner_items) };
}

/** Polls until `check` passes (audit rows of cancellations are written just after the event). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Counts the terminal events (tradeCancelled / tradeCompleted) a client received for a trade. */
export function terminalEvents(t: Trader, tradeId: string): string[] {
  return t.ws.events.filter((e) => (e.type === 'tradeCancelled' || e.type === 'tradeCompleted') && e.data.tradeId === tradeId).map((e) => e.type);
}
