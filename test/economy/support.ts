/** Helpers for the economy tests: seeding items in the database, request/answer over /ws, SQL ledgers. */
import { setTimeout as sleep } from 'node:timers/promises';
import { matchMaker } from '@colyseus/core';
import type { WorldRoom } from '../../rooms/WorldRoom.ts';
import type { Database } from '../../src/db/database.ts';
import { runItemTransaction, type Containers } from '../../src/db/item-transaction.ts';
import { emptyBank, type Bank } from '../../src/game/bank.ts';
import { emptyEquipment, type EquipmentSlot } from '../../src/game/equipment.ts';
import { emptyInventory, type InventoryItem } from '../../src/game/inventory.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer, type TestAccount } from '../helpers/players.ts';
import type { TestServer } from '../helpers/server.ts';
import type { JsonWsClient, WsEvent } from '../helpers/ws-client.ts';

export const HOME = { x: 100, z: 100 };
/** Inside the bank building, beside a booth (106, 85) and the banker (109, 87). */
export const AT_BANK = { x: 107, z: 86 };
/** Beside Mirela, keeper of the general store (89, 86). */
export const AT_GENERAL_STORE = { x: 89, z: 87 };
export const GENERAL_STORE = 'brackenford_general_store';
/** Beside Dunstan, keeper of the smithy (90, 113). */
export const AT_SMITHY = { x: 90, z: 112 };
export const SMITHY = 'dunstans_smithy';

export interface Seed {
  inventory?: Array<InventoryItem | null>;
  equipment?: Partial<Record<EquipmentSlot, InventoryItem>>;
  bank?: Bank;
  /** The character's stored health (the world starts the player with it). */
  health?: number;
  levels?: Partial<Record<'attack' | 'defense' | 'ranged', number>>;
}

/** Writes containers through the item transaction (as a game rule would), replacing what the character holds. */
export async function seed(db: Database, characterId: string, items: Seed): Promise<void> {
  await runItemTransaction(db, [characterId], async (tx, loaded) => {
    if (items.health !== undefined) await tx.execute('update characters set health = ? where id = ?', [items.health, characterId]);
    for (const [skill, level] of Object.entries(items.levels ?? {})) {
      await tx.execute(`update characters set ${skill}_level = ? where id = ?`, [level, characterId]);
    }
    const inventory = [...emptyInventory()];
    (items.inventory ?? []).forEach((slot, i) => (inventory[i] = slot));
    const after: Containers = {
      inventory, equipment: { ...emptyEquipment(), ...items.equipment }, bank: items.bank ?? emptyBank(),
    };
    void loaded;
    return { value: null, write: new Map([[characterId, after]]) };
  }, { bank: true });
}

export interface Seeded {
  account: TestAccount;
  characterId: string;
  client: JsonWsClient;
}

/** A new account and character placed at `at` with the given items, entered over /ws. */
export async function seededPlayer(server: TestServer, at: { x: number; z: number }, items: Seed = {}, account?: TestAccount): Promise<Seeded> {
  account ??= await anonymousAccount(server);
  const character = await createCharacterRow(server, account.accountId, at);
  await seed(server.context.db, character.id, items);
  const client = await jsonPlayer(server, account, character.id);
  await client.waitFor('player:sync');
  return { account, characterId: character.id, client };
}

export type Reply = { ok: true; event: WsEvent } | { ok: false; code: string; error: Record<string, unknown> };

/**
 * Sends an event and waits for its answer: an event of type `done` (or one the `done` test accepts) is success, an
 * `error` naming the event is a refusal.
 */
export async function request(client: JsonWsClient, type: string, data: unknown, done: string | ((event: WsEvent) => boolean), timeoutMs = 10_000): Promise<Reply> {
  const isDone = typeof done === 'string' ? (event: WsEvent) => event.type === done : done;
  const from = client.events.length;
  client.send(type, data);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (let i = from; i < client.events.length; i++) {
      const e = client.events[i];
      if (e.type === 'error' && (e.data.event === type || e.data.code === 'RATE_LIMITED')) return { ok: false, code: e.data.code, error: e.data };
      if (isDone(e)) return { ok: true, event: e };
    }
    await sleep(5);
  }
  throw new Error(`no ${typeof done === 'string' ? done : 'answer'} or error for ${type}; got ${client.events.slice(from).map((e) => e.type).join(', ')}`);
}

export async function ok(client: JsonWsClient, type: string, data: unknown, doneType: string): Promise<WsEvent> {
  const reply = await request(client, type, data, doneType);
  if (!reply.ok) throw new Error(`${type} was refused: ${reply.code} ${String(reply.error.message)}`);
  return reply.event;
}

export async function refusal(client: JsonWsClient, type: string, data: unknown, doneType = 'player:sync'): Promise<string> {
  const reply = await request(client, type, data, doneType);
  if (reply.ok) throw new Error(`${type} was accepted, expected a refusal`);
  return reply.code;
}

/** The latest player:sync the client received. */
export function lastSync(client: JsonWsClient): Record<string, any> {
  const sync = [...client.events].reverse().find((e) => e.type === 'player:sync');
  if (!sync) throw new Error('no player:sync yet');
  return sync.data;
}

export function worldRoomOf(client: JsonWsClient): WorldRoom {
  const joined = client.events.find((e) => e.type === 'world:joined');
  const room = joined && matchMaker.getLocalRoomById(joined.data.roomId);
  if (!room) throw new Error('the world room is not in this process');
  return room as unknown as WorldRoom;
}

export interface Rows {
  inventory: Array<{ slot: number; item_id: string; quantity: number }>;
  equipment: Array<{ slot_type: string; item_id: string; quantity: number }>;
  bank: Array<{ tab_index: number; position: number; item_id: string; quantity: number }>;
  tabs: Array<{ tab_index: number; name: string }>;
  ground: Array<{ id: string; item_id: string; quantity: number; owner_id: string | null; x: number; z: number }>;
  deaths: Array<{ id: string; status: string; items: unknown }>;
  coins: number;
  health: number;
}

export async function rowsOf(db: Database, characterId: string): Promise<Rows> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const q = (sql: string) => db.em.fork().execute<any[]>(sql, [characterId]);
  const deaths = await q(`select id, status, items from player_deaths where character_id = ? order by created_at`);
  const [character] = await q('select coins, health from characters where id = ?');
  return {
    inventory: (await q('select slot, item_id, quantity from inventory where character_id = ? order by slot')).map(num),
    equipment: (await q('select slot_type, item_id, quantity from equipment where character_id = ? order by slot_type')).map(num),
    bank: (await q('select tab_index, position, item_id, quantity from bank_items where character_id = ? order by tab_index, position')).map(num),
    tabs: (await q('select tab_index, name from bank_tabs where character_id = ? order by tab_index')).map(num),
    ground: (await q('select id, item_id, quantity, owner_id, x, z from ground_items where owner_id = ? order by dropped_at')).map(num),
    deaths: deaths.map((d: any) => ({ ...d, items: typeof d.items === 'string' ? JSON.parse(d.items) : d.items })),
    coins: Number(character.coins),
    health: Number(character.health),
  };
}

function num<T extends Record<string, unknown>>(row: T): T {
  const out: Record<string, unknown> = { ...row };
  for (const key of ['slot', 'quantity', 'tab_index', 'position', 'x', 'z']) if (key in out) out[key] = Number(out[key]);
  return out as T;
}

/** Item id → total over the character's inventory, equipment, bank, own ground items and open death locks. */
export function ledger(rows: Rows): Map<string, number> {
  const totals = new Map<string, number>();
  const add = (itemId: string, n: number) => totals.set(itemId, (totals.get(itemId) ?? 0) + n);
  for (const r of [...rows.inventory, ...rows.equipment, ...rows.bank, ...rows.ground]) add(r.item_id, r.quantity);
  for (const d of rows.deaths) if (d.status === 'locked') for (const i of d.items as InventoryItem[]) add(i.itemId, i.quantity);
  return new Map([...totals].sort(([a], [b]) => a.localeCompare(b)));
}

/** Polls until `check` holds (for effects that follow a commit asynchronously, such as expiry sweeps). */
export async function until(check: () => Promise<boolean>, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(50);
  }
}

export function stack(itemId: string, quantity = 1): InventoryItem {
  return { itemId, quantity };
}

export { anonymousAccount };
