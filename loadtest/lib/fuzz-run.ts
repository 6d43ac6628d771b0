/**
 * Drives hostile input at a running server and checks it survives: every REST answer below 500, no
 * INTERNAL_ERROR event, only the documented close codes, /health still 200, and not one item created or
 * destroyed (per-item totals over every container of the fuzzed account are unchanged — its character stands away
 * from any bank or shop and holds nothing edible, so no legitimate source or sink is within its reach).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import WebSocket from 'ws';
import type { Database } from '../../src/db/database.ts';
import { Character, User } from '../../src/db/entities/index.ts';
import { runItemTransaction, type Containers } from '../../src/db/item-transaction.ts';
import { hostileFrame, hostileRequest } from './fuzz.ts';

export interface FuzzTarget {
  baseUrl: string;
  wsUrl: string;
  db: Database;
  signToken(accountId: string): string;
}

export interface FuzzReport {
  frames: number;
  requests: number;
  serverErrors: string[];
  internalErrors: number;
  unexpectedCloses: number[];
  reconnects: number;
  totalsBefore: Record<string, number>;
  totalsAfter: Record<string, number>;
}

const ALLOWED_CLOSES = new Set([1000, 1003, 1008, 1009, 4001]);

/**
 * Per-item totals of everything the fuzzed account's characters hold or dropped: inventories, equipment, banks, and
 * the ground items they own. Only theirs: on a database other runs share, those runs' ground items expire (the
 * sink) while the fuzzer runs, which is not an item the fuzzer created or destroyed.
 */
async function itemTotals(db: Database, accountId: string): Promise<Record<string, number>> {
  const rows = await db.em.getConnection().execute<Array<{ item_id: string; n: string | number }>>(
    `with mine as (select id from characters where account_id = ?)
     select item_id, sum(quantity)::bigint as n from (
       select item_id, quantity from inventory where character_id in (select id from mine)
       union all select item_id, quantity from equipment where character_id in (select id from mine)
       union all select item_id, quantity from bank_items where character_id in (select id from mine)
       union all select item_id, quantity from ground_items where owner_id in (select id from mine)
     ) held group by item_id`, [accountId]);
  return Object.fromEntries(rows.map((row) => [row.item_id, Number(row.n)]));
}

async function fuzzedCharacter(db: Database): Promise<{ accountId: string; characterId: string }> {
  const em = db.em.fork();
  const user = em.create(User, { id: randomUUID(), displayName: 'Fuzz', roles: ['player'] });
  // A quiet corner of the world: far from banks, shops and other players.
  const character = em.create(Character, { id: randomUUID(), accountId: user.id, name: `F${randomUUID().slice(0, 8)}`, positionX: 30, positionZ: 30, lastLoginAt: new Date() });
  await em.flush();
  await runItemTransaction(db, [character.id], async (_tx, loaded) => {
    const inventory = [...loaded.get(character.id)!.inventory];
    inventory[0] = { itemId: 'coins', quantity: 1000 };
    inventory[1] = { itemId: 'bronze_bar', quantity: 1 };
    return { value: null, write: new Map<string, Containers>([[character.id, { ...loaded.get(character.id)!, inventory }]]) };
  });
  return { accountId: user.id, characterId: character.id };
}

class FuzzSocket {
  socket!: WebSocket;
  internalErrors = 0;
  closes: number[] = [];
  private readonly url: string;
  private readonly token: string;
  private readonly characterId: string;

  constructor(url: string, token: string, characterId: string) {
    this.url = url;
    this.token = token;
    this.characterId = characterId;
  }

  /** The seat to reclaim after a close (the world holds a dropped player's place for a while). */
  reconnectionToken: string | undefined;

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${this.url}/ws`);
      this.socket = socket;
      const timer = setTimeout(() => reject(new Error('fuzz socket did not enter the world')), 10_000);
      const entry = this.reconnectionToken ? { reconnectionToken: this.reconnectionToken } : { characterId: this.characterId };
      socket.on('open', () => socket.send(JSON.stringify({ type: 'authenticate', data: { token: this.token, ...entry } })));
      socket.on('message', (raw) => {
        const event = JSON.parse(raw.toString());
        if (event.type === 'world:joined') {
          this.reconnectionToken = event.data.reconnectionToken;
          clearTimeout(timer);
          resolve();
        }
        if (event.type === 'error' && event.data?.code === 'INTERNAL_ERROR') this.internalErrors++;
        if (event.type === 'error' && (event.data?.event === 'world:enter' || event.data?.event === 'authenticate')) {
          clearTimeout(timer);
          reject(new Error(`${event.data.code}: ${event.data.message}`));
        }
      });
      socket.on('close', (code) => this.closes.push(code));
      socket.on('error', () => {});
    });
  }

  async closeAndWait(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/**
 * Gets back into the world: reclaims the held seat, or enters afresh when there is none (a fuzzed `world:leave`
 * gave it up), retrying briefly while the server is still processing the drop.
 */
async function reopen(url: string, token: string, characterId: string, seat: string | undefined): Promise<FuzzSocket> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 10; attempt++) {
    const socket = new FuzzSocket(url, token, characterId);
    socket.reconnectionToken = attempt % 2 === 0 ? seat : undefined;
    try {
      await socket.open();
      return socket;
    } catch (error) {
      lastError = error;
      await socket.closeAndWait();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`could not get back into the world: ${lastError}`);
}

export async function runFuzz(target: FuzzTarget, options: { frames: number; requests: number; seed?: number }): Promise<FuzzReport> {
  const { accountId, characterId } = await fuzzedCharacter(target.db);
  const token = target.signToken(accountId);
  const totalsBefore = await itemTotals(target.db, accountId);
  const report: FuzzReport = { frames: 0, requests: 0, serverErrors: [], internalErrors: 0, unexpectedCloses: [], reconnects: 0, totalsBefore, totalsAfter: {} };

  let socket = new FuzzSocket(target.wsUrl, token, characterId);
  await socket.open();
  const frames = fc.sample(hostileFrame, { numRuns: options.frames, seed: options.seed });
  for (const frame of frames) {
    if (socket.socket.readyState !== WebSocket.OPEN) {
      report.internalErrors += socket.internalErrors;
      report.unexpectedCloses.push(...socket.closes.filter((code) => !ALLOWED_CLOSES.has(code)));
      const seat = socket.reconnectionToken;
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket = await reopen(target.wsUrl, token, characterId, seat);
      report.reconnects++;
    }
    socket.socket.send(frame);
    report.frames++;
    if (report.frames % 40 === 0) await new Promise((resolve) => setTimeout(resolve, 700)); // stay under the message limit
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  report.internalErrors += socket.internalErrors;
  // Only closes the server chose count; the fuzzer's own close at the end does not.
  report.unexpectedCloses.push(...socket.closes.filter((code) => !ALLOWED_CLOSES.has(code)));
  await socket.closeAndWait();

  const requests = fc.sample(hostileRequest, { numRuns: options.requests, seed: options.seed });
  for (const request of requests) {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (request.contentType) headers['Content-Type'] = request.contentType;
    const hasBody = request.body !== undefined && request.method !== 'GET';
    const response = await fetch(`${target.baseUrl}${request.path}`, { method: request.method, headers, body: hasBody ? request.body : undefined });
    await response.arrayBuffer();
    if (response.status >= 500 && response.status !== 503) report.serverErrors.push(`${request.method} ${request.path} → ${response.status}`);
    report.requests++;
  }
  const health = await fetch(`${target.baseUrl}/health`);
  if (health.status !== 200) report.serverErrors.push(`/health → ${health.status}`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  report.totalsAfter = await itemTotals(target.db, accountId);
  return report;
}
