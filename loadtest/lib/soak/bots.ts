/**
 * The soak bots over /ws. Traders work in pairs at the bank: each round both do one solo operation (a bank
 * deposit or withdrawal, or a drop or pick-up of their own ground item), then the pair completes a full
 * two-screen trade. Shoppers buy and sell at the general store and keep an exact ledger of what the server
 * acknowledged (`shop:state.last`), resolving the operation in flight at a crash from what the restarted server
 * loads. Every wait is bounded; a closed socket (the server was killed) sends the bot back to `connect`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SeededCharacter, Totals } from './ledger.ts';
import { addTotals, sameTotals, sortedTotals } from './ledger.ts';
import { SeatResume } from './seat-resume.ts';
import { SocketClosed, SoakSocket, WaitTimeout, isErrorFor, type SoakEvent } from './socket.ts';

export interface Target {
  /** ws://host:port of the running server, null while it is down. */
  wsUrl: string | null;
  /** Incremented at every (re)start. */
  generation: number;
}

export interface AckedTrade {
  tradeId: string;
  initiatorId: string;
  partnerId: string;
  /** What each side was told it received (tradeCompleted.receivedItems), when it saw the completion. */
  received: Map<string, Totals>;
}

export interface SoakContext {
  target: Target;
  stopAt: number;
  opTimeoutMs: number;
  /** Operations acknowledged by the server, per kind. */
  acked: Record<string, number>;
  /** Operations refused with an error code (state unchanged), per code. */
  refused: Record<string, number>;
  /** Acknowledged operations per server generation (proves the bots continue after every restart). */
  ackedByGeneration: Record<number, number>;
  trades: Map<string, AckedTrade>;
  reconnects: number;
  timeouts: number;
  /**
   * Trader rounds in which a bot had nothing to move (inventory and bank empty, no ground item of its own in view:
   * its drops expired while it was away) and read its bank instead.
   */
  emptyHanded: number;
  violations: string[];
}

/** A fresh context: nothing counted yet, the bots entering through `wsUrl` (null: not known yet) until `stopAt`. */
export function newSoakContext(options: { wsUrl: string | null; stopAt: number; opTimeoutMs: number; violations?: string[] }): SoakContext {
  return {
    target: { wsUrl: options.wsUrl, generation: 0 }, stopAt: options.stopAt, opTimeoutMs: options.opTimeoutMs,
    acked: {}, refused: {}, ackedByGeneration: {}, trades: new Map(), reconnects: 0, timeouts: 0, emptyHanded: 0,
    violations: options.violations ?? [],
  };
}

type Slot = { itemId: string; quantity: number } | null;

function bump(map: Record<string, number>, key: string | number, n = 1): void {
  map[key] = (map[key] ?? 0) + n;
}

/** The server's answer when the database went away during a commit: the operation may or may not have happened. */
export const OUTCOME_UNKNOWN = 'OUTCOME_UNKNOWN';

/** A refusal of the server (error code); the state did not change (except OUTCOME_UNKNOWN: see above). */
/**
 * Refusals that say "not now" (a world that cannot confirm its lease or reach its database, a rate limit): the bot
 * waits before its next round, as a client honouring `retryAfterSeconds` would. A trader pair that went on at once
 * answered its refusals as fast as the server sent them — over 1,000 messages a second on one socket, which the
 * server's message limit then refused too (a chaos run counted 2,265 RATE_LIMITED and 11,440 WORLD_UNAVAILABLE).
 */
const NOT_NOW = new Set(['WORLD_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'RATE_LIMITED']);
/** The wait after a "not now": the server's advice, within these bounds (the harness must notice recovery soon). */
const NOT_NOW_MIN_MS = 250;
const NOT_NOW_MAX_MS = 2_000;

function notNowWaitMs(data: { retryAfterMs?: unknown; retryAfterSeconds?: unknown }): number {
  const advised = typeof data.retryAfterMs === 'number' ? data.retryAfterMs
    : typeof data.retryAfterSeconds === 'number' ? data.retryAfterSeconds * 1000 : NOT_NOW_MIN_MS;
  return Math.min(NOT_NOW_MAX_MS, Math.max(NOT_NOW_MIN_MS, advised));
}

/** Waits until none of the bots has a "not now" pending (bounded by the soak's end). */
async function untilQuietEnds(bots: Bot[], ctx: SoakContext): Promise<void> {
  const until = Math.min(ctx.stopAt, Math.max(...bots.map((bot) => bot.quietUntil)));
  if (until > Date.now()) await sleep(until - Date.now());
}

class Refused extends Error {
  readonly code: string;
  constructor(code: string) {
    super(code);
    this.code = code;
  }
}

export class Bot {
  readonly me: SeededCharacter;
  readonly token: string;
  socket: SoakSocket | null = null;
  generation = -1;
  inventory: Slot[] = [];
  equipment: Record<string, Slot> = {};
  bank: Array<{ itemId: string; quantity: number }> | null = null;
  ground = new Set<string>();
  /** The seat to take back after a dropped connection (seat-resume.ts). */
  readonly resume = new SeatResume();
  /** A "not now" refusal asks the bot to wait until then before its next round (NOT_NOW). */
  quietUntil = 0;
  /**
   * The socket the bot's seat was taken through, until the bot leaves. Its close, whenever the event comes (a
   * socket counts as closed from its close handshake on, before it), tells whether the world holds the seat.
   */
  private seatSocket: SoakSocket | null = null;

  constructor(me: SeededCharacter, token: string) {
    this.me = me;
    this.token = token;
  }

  get id(): string {
    return this.me.characterId;
  }

  online(ctx: SoakContext): boolean {
    return this.socket !== null && !this.socket.isClosed && this.generation === ctx.target.generation;
  }

  sock(): SoakSocket {
    if (!this.socket || this.socket.isClosed) throw new SocketClosed('offline');
    return this.socket;
  }

  protected observe(e: SoakEvent): void {
    const d = e.data ?? {};
    if ((e.type === 'error' || e.type === 'tradeError') && NOT_NOW.has(d.code)) this.quietUntil = Date.now() + notNowWaitMs(d);
    if (e.type === 'world:joined') this.resume.joined(d.reconnectionToken);
    if (e.type === 'player:sync') {
      if (Array.isArray(d.inventory)) this.inventory = d.inventory;
      if (d.equipment && typeof d.equipment === 'object') this.equipment = d.equipment;
    } else if (e.type === 'bank:state' && Array.isArray(d.tabs)) {
      this.bank = d.tabs.flatMap((t: { items: Array<{ itemId: string; quantity: number }> }) => t.items);
    } else if (e.type === 'inventory:dropped') {
      this.ground.add(d.groundItemId);
    } else if (e.type === 'groundItem:pickedUp') {
      this.ground.delete(d.groundItemId);
    } else if (e.type === 'world:update') {
      for (const a of [...(d.added ?? []), ...(d.changed ?? [])]) if (a.kind === 'groundItem' && a.ownerId === this.id) this.ground.add(a.id);
      for (const r of d.removed ?? []) if (r.kind === 'groundItem') this.ground.delete(r.id);
    }
  }

  /** Drops the connection: a graceful world:leave when the server is still there, so the seat is freed. */
  async disconnect(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    if (!s) return;
    if (s.isClosed) return s.close();
    this.seatSocket = null;
    this.resume.forget();
    try {
      const from = s.mark();
      s.send('world:leave', {});
      await s.waitFrom(from, (e) => e.type === 'world:left', 3_000);
    } catch {
      // killed meanwhile, or no answer: the close below is enough
    }
    s.close();
  }

  /** Where the next entry goes (the chaos harness spreads its bots over several processes). */
  protected entryUrl(ctx: SoakContext): string | null {
    return ctx.target.wsUrl;
  }

  /** The `authenticate` that enters the world (a world number may be added). */
  protected entryData(): Record<string, unknown> {
    return { token: this.token, characterId: this.id };
  }

  /** What went wrong with an entry attempt (the chaos bots keep the last one for their report). */
  protected entryFailed(_what: string): void {}

  /**
   * Enters the world on the running server (a fresh world:enter); retries while it is down; false at the end (the
   * soak's end, or 1,000 attempts: the caller's loop tries again while the soak runs).
   */
  async connect(ctx: SoakContext, graceMs: number): Promise<boolean> {
    const deadline = ctx.stopAt + graceMs;
    let attempt = 0;
    for (; attempt < 1_000 && Date.now() < deadline; attempt++) {
      const wsUrl = this.entryUrl(ctx);
      const { generation } = ctx.target;
      if (!wsUrl) {
        await sleep(100);
        continue;
      }
      let s: SoakSocket | null = null;
      try {
        s = await SoakSocket.open(wsUrl, 3_000);
        this.inventory = [];
        this.equipment = {};
        this.bank = null;
        this.ground = new Set();
        s.onEvent = (e) => this.observe(e);
        const from = s.mark();
        // Within the grace after a drop, the seat the world holds is taken back (a fresh entry is ALREADY_ONLINE).
        const reconnectionToken = this.resume.current();
        s.send('authenticate', reconnectionToken ? { token: this.token, reconnectionToken } : this.entryData());
        const e = await s.waitFrom(from, (x) => x.type === 'world:joined' || x.type === 'error' || (x.type === 'authResult' && !x.data.success), 10_000);
        if (e.type === 'world:joined') {
          this.socket = s;
          this.seatSocket = s;
          this.generation = generation;
          const entered = s;
          s.socket.on('close', (code) => {
            if (this.seatSocket === entered) this.resume.dropped(code);
          });
          return true;
        }
        s.close();
        if (reconnectionToken && e.type === 'error') this.resume.refused(String(e.data?.code));
        if (e.type === 'authResult') this.entryFailed(`authenticate refused ${String(e.data?.error?.code)}`);
        await sleep(e.data?.code === 'ALREADY_ONLINE' ? 500 : 200);
      } catch (error) {
        s?.close();
        this.entryFailed(`entry failed: ${error instanceof Error ? error.message : String(error)}`);
        await sleep(200);
      }
    }
    if (Date.now() < deadline) this.entryFailed(`gave up entering after ${attempt} attempts in a row (retrying)`);
    return false;
  }

  /** Sends an event; resolves with the success event, throws Refused on an error answering it. */
  async request(type: string, data: unknown, done: (e: SoakEvent) => boolean, timeoutMs: number): Promise<SoakEvent> {
    const s = this.sock();
    const from = s.mark();
    s.send(type, data);
    const e = await s.waitFrom(from, (x) => done(x) || isErrorFor(x, type), timeoutMs);
    if (e.type === 'error') throw new Refused(String(e.data?.code));
    return e;
  }

  filledSlots(): number[] {
    return this.inventory.flatMap((x, i) => (x ? [i] : []));
  }

  /** Inventory + equipment as totals (what a shopper holds: it never banks or drops). */
  carried(): Totals {
    const t: Totals = {};
    for (const x of [...this.inventory, ...Object.values(this.equipment)]) if (x) addTotals(t, { [x.itemId]: x.quantity });
    return sortedTotals(t);
  }
}

function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)];
}

function upTo(rnd: () => number, max: number): number {
  return 1 + Math.floor(rnd() * Math.max(1, max));
}

function ack(ctx: SoakContext, bot: Bot, kind: string): void {
  bump(ctx.acked, kind);
  bump(ctx.ackedByGeneration, bot.generation);
}

/**
 * One bank or ground operation of a trader. A trader with nothing to move reads its bank instead: every round
 * waits on the server, so a pair that has lost its goods (its drops expired while its world was away) neither spins
 * on the harness' event loop nor goes quiet (an answered read still shows its world answering).
 */
async function soloOp(bot: Bot, ctx: SoakContext, rnd: () => number): Promise<void> {
  const T = ctx.opTimeoutMs;
  try {
    if (bot.filledSlots().length === 0 && bot.ground.size === 0 && (bot.bank === null || bot.bank.length === 0)) {
      ctx.emptyHanded++;
      await bot.request('bank:open', {}, (e) => e.type === 'bank:state', T);
      return;
    }
    if (rnd() < 0.5) {
      if (bot.bank === null) await bot.request('bank:open', {}, (e) => e.type === 'bank:state', T);
      const slots = bot.filledSlots();
      if ((rnd() < 0.5 || bot.bank!.length === 0) && slots.length > 0) {
        const slot = pick(rnd, slots);
        const quantity = rnd() < 0.1 ? 'all' : upTo(rnd, Math.min(bot.inventory[slot]!.quantity, 50));
        await bot.request('bank:deposit', { slot, quantity }, (e) => e.type === 'bank:state', T);
        ack(ctx, bot, 'bank:deposit');
      } else if (bot.bank!.length > 0) {
        const entry = pick(rnd, bot.bank!);
        await bot.request('bank:withdraw', { itemId: entry.itemId, quantity: upTo(rnd, Math.min(entry.quantity, 3)) }, (e) => e.type === 'bank:state', T);
        ack(ctx, bot, 'bank:withdraw');
      }
    } else if (bot.ground.size > 0 && rnd() < 0.6) {
      const groundItemId = pick(rnd, [...bot.ground]);
      try {
        await bot.request('groundItem:pickup', { groundItemId }, (e) => e.type === 'groundItem:pickedUp' && e.data.groundItemId === groundItemId, T);
      } catch (error) {
        // Gone (picked up by a request whose answer was lost): forget that item only; the others still lie there.
        if (error instanceof Refused && (error.code === 'NOT_FOUND' || error.code === 'EXPIRED')) bot.ground.delete(groundItemId);
        throw error;
      }
      ack(ctx, bot, 'groundItem:pickup');
    } else {
      const slots = bot.filledSlots();
      if (slots.length === 0) return;
      const slot = pick(rnd, slots);
      await bot.request('inventory:drop', { slot, quantity: upTo(rnd, Math.min(bot.inventory[slot]!.quantity, 5)) }, (e) => e.type === 'inventory:dropped', T);
      ack(ctx, bot, 'inventory:drop');
    }
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    bump(ctx.refused, error.code);
  }
}

const TRADE_END = new Set(['tradeError', 'tradeCancelled']);

/** Waits on one side for `ok`, or a trade error/cancellation (thrown as Refused). */
async function step(bot: Bot, from: number, ok: (e: SoakEvent) => boolean, timeoutMs: number): Promise<SoakEvent> {
  const e = await bot.sock().waitFrom(from, (x) => ok(x) || TRADE_END.has(x.type) || isErrorFor(x, 'tradeRequest'), timeoutMs);
  if (ok(e)) return e;
  throw new Refused(String(e.data?.code ?? e.data?.reason ?? e.type));
}

/** Waits on both sides at once; both waits are always settled (no stray rejection). */
async function both(a: Promise<SoakEvent>, b: Promise<SoakEvent>): Promise<[SoakEvent, SoakEvent]> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === 'rejected') throw ra.reason;
  if (rb.status === 'rejected') throw rb.reason;
  return [ra.value, rb.value];
}

/** A full two-screen trade: a offers one stack (part of it), b another; both accept twice. */
async function trade(a: Bot, b: Bot, ctx: SoakContext, rnd: () => number): Promise<void> {
  const T = ctx.opTimeoutMs;
  const slotsA = a.filledSlots();
  const slotsB = b.filledSlots();
  if (slotsA.length === 0 || slotsB.length === 0) return;
  let tradeId: string | null = null;
  try {
    let ma = a.sock().mark();
    let mb = b.sock().mark();
    a.sock().send('tradeRequest', { targetPlayerId: b.id });
    const incoming = await Promise.race([
      step(b, mb, (e) => e.type === 'tradeIncoming' && e.data.fromPlayerId === a.id, T),
      step(a, ma, () => false, T),
    ].map((p) => { p.catch(() => undefined); return p; }));
    tradeId = String(incoming.data.tradeId);
    const id = tradeId;
    ma = a.sock().mark();
    mb = b.sock().mark();
    b.sock().send('tradeRequestRespond', { tradeId: id, accept: true });
    await both(step(a, ma, (e) => e.type === 'tradeStarted' && e.data.tradeId === id, T), step(b, mb, (e) => e.type === 'tradeStarted' && e.data.tradeId === id, T));

    const sa = pick(rnd, slotsA);
    const sb = pick(rnd, slotsB);
    ma = a.sock().mark();
    mb = b.sock().mark();
    a.sock().send('tradeAddItem', { tradeId: id, inventorySlot: sa, quantity: upTo(rnd, Math.min(a.inventory[sa]!.quantity, 20)) });
    b.sock().send('tradeAddItem', { tradeId: id, inventorySlot: sb, quantity: upTo(rnd, Math.min(b.inventory[sb]!.quantity, 3)) });
    const offered = (e: SoakEvent) => e.type === 'tradeUpdated' && e.data.tradeId === id && e.data.myOffer.items.length === 1 && e.data.theirOffer.items.length === 1;
    await both(step(a, ma, offered, T), step(b, mb, offered, T));

    for (const screen of ['offer', 'confirm']) {
      mb = b.sock().mark();
      a.sock().send('tradeAccept', { tradeId: id });
      await step(b, mb, (e) => e.type === 'tradeUpdated' && e.data.tradeId === id && e.data.theirOffer.accepted === true && (screen === 'offer' || e.data.screen === 'confirm'), T);
      ma = a.sock().mark();
      mb = b.sock().mark();
      b.sock().send('tradeAccept', { tradeId: id });
      const next = screen === 'offer' ? 'tradeConfirmScreen' : 'tradeCompleted';
      const ok = (bot: Bot) => (e: SoakEvent) => {
        if (e.type !== next || e.data.tradeId !== id) return false;
        if (next === 'tradeCompleted') {
          const record = ctx.trades.get(id) ?? { tradeId: id, initiatorId: a.id, partnerId: b.id, received: new Map() };
          const received: Totals = {};
          for (const r of e.data.receivedItems ?? []) addTotals(received, { [r.itemId]: Number(r.quantity) });
          record.received.set(bot.id, sortedTotals(received));
          ctx.trades.set(id, record);
        }
        return true;
      };
      // After the completion each side gets its player:sync; wait for it so the next choice sees the new inventory.
      await both(step(a, ma, ok(a), T), step(b, mb, ok(b), T));
    }
    await both(a.sock().waitFrom(ma, (e) => e.type === 'player:sync', T), b.sock().waitFrom(mb, (e) => e.type === 'player:sync', T));
    ack(ctx, a, 'trade');
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    bump(ctx.refused, error.code);
    if (tradeId) {
      const id = tradeId;
      const ma = a.sock().mark();
      const mb = b.sock().mark();
      try {
        a.sock().send('tradeCancel', { tradeId: id });
      } catch {
        // closed: the server cancels on disconnect
      }
      await Promise.allSettled([
        a.sock().waitFrom(ma, (e) => e.type === 'tradeCancelled' || e.type === 'tradeCompleted' || e.type === 'tradeError', 3_000),
        b.sock().waitFrom(mb, (e) => e.type === 'tradeCancelled' || e.type === 'tradeCompleted' || e.type === 'tradeError', 3_000),
      ]);
    }
  }
}

async function settle(results: PromiseSettledResult<unknown>[]): Promise<void> {
  for (const r of results) if (r.status === 'rejected') throw r.reason;
}

/**
 * Handles a failed round: a timeout is counted and the connection dropped; a coded refusal of a step no caller
 * expected to fail (a shop:open refused WORLD_UNAVAILABLE in a world that cannot confirm its lease) changed nothing
 * and is counted as a refusal; anything else is a bot error. A bot whose connection is gone re-enters.
 */
async function recover(bots: Bot[], ctx: SoakContext, error: unknown): Promise<void> {
  if (error instanceof WaitTimeout) ctx.timeouts++;
  else if (error instanceof Refused) bump(ctx.refused, error.code);
  else if (!(error instanceof SocketClosed)) ctx.violations.push(`bot error: ${String((error as Error)?.stack ?? error)}`);
  for (const bot of bots) if (error instanceof WaitTimeout || !bot.online(ctx)) await bot.disconnect();
}

async function ensureOnline(bots: Bot[], ctx: SoakContext, graceMs: number): Promise<boolean> {
  const results = await Promise.all(bots.map(async (bot) => {
    if (bot.online(ctx)) return true;
    await bot.disconnect();
    const ok = await bot.connect(ctx, graceMs);
    if (ok) ctx.reconnects++;
    return ok;
  }));
  return results.every(Boolean);
}

/** A pair of traders until the end of the soak. */
export async function traderPairLoop(a: Bot, b: Bot, ctx: SoakContext, rnd: () => number): Promise<void> {
  for (let round = 0; round < 1_000_000 && Date.now() < ctx.stopAt; round++) {
    // Not in after many attempts: try again while the soak runs (the loop's bounds end it).
    if (!(await ensureOnline([a, b], ctx, 0))) continue;
    await untilQuietEnds([a, b], ctx);
    try {
      await settle(await Promise.allSettled([soloOp(a, ctx, rnd), soloOp(b, ctx, rnd)]));
      if (Date.now() >= ctx.stopAt) break;
      const [x, y] = rnd() < 0.5 ? [a, b] : [b, a];
      await trade(x, y, ctx, rnd);
    } catch (error) {
      await recover([a, b], ctx, error);
    }
  }
  await Promise.all([a.disconnect(), b.disconnect()]);
}

export interface ShopperState {
  bot: Bot;
  /** The exact ledger: seeded + every acknowledged purchase and sale + in-flight operations found applied. */
  expected: Totals;
  inFlight: { action: 'buy' | 'sell'; itemId: string; quantity: number; unitCoins: number } | null;
  inFlightApplied: number;
}

export const GENERAL_STORE = 'brackenford_general_store';
const SHOP_ITEMS = ['feather', 'bread'];

/** Could `diff` (what the server holds − the acknowledged ledger) be exactly the in-flight operation? */
export function inFlightExplains(diff: Totals, op: ShopperState['inFlight']): boolean {
  if (!op) return false;
  const candidates: Totals[] = [];
  if (op.action === 'buy') candidates.push({ [op.itemId]: op.quantity, coins: -op.quantity * op.unitCoins });
  else for (let k = 1; k <= op.quantity; k++) candidates.push({ [op.itemId]: -k, coins: k * op.unitCoins });
  return candidates.some((c) => sameTotals(diff, c));
}

/** After (re)entering: what the server loaded must be the acknowledged ledger, or that plus the op in flight. */
function reconcile(state: ShopperState, ctx: SoakContext): void {
  const held = state.bot.carried();
  const diff = addTotals({ ...held }, state.expected, -1);
  if (Object.keys(sortedTotals(diff)).length > 0) {
    if (inFlightExplains(sortedTotals(diff), state.inFlight)) state.inFlightApplied++;
    else ctx.violations.push(`shopper ${state.bot.me.name}: loaded ${JSON.stringify(held)} is neither the acknowledged ledger ${JSON.stringify(state.expected)} nor that plus the op in flight ${JSON.stringify(state.inFlight)}`);
  }
  state.expected = held;
  state.inFlight = null;
}

export async function shopperLoop(state: ShopperState, ctx: SoakContext, rnd: () => number): Promise<void> {
  const bot = state.bot;
  const T = ctx.opTimeoutMs;
  let prices = new Map<string, { buyPrice: number; sellPrice: number }>();
  for (let round = 0; round < 1_000_000 && Date.now() < ctx.stopAt; round++) {
    await sleep(5); // leave the server's CPU mostly to the traders
    await untilQuietEnds([bot], ctx);
    if (!bot.online(ctx)) {
      await bot.disconnect();
      if (!(await bot.connect(ctx, 0))) continue;
      ctx.reconnects++;
      reconcile(state, ctx);
      prices = new Map();
    }
    try {
      if (prices.size === 0) {
        const open = await bot.request('shop:open', { storeId: GENERAL_STORE }, (e) => e.type === 'shop:state', T);
        for (const i of open.data.items) prices.set(i.itemId, { buyPrice: i.buyPrice, sellPrice: i.sellPrice });
      }
      const itemId = pick(rnd, SHOP_ITEMS);
      const quantity = upTo(rnd, 3);
      const slot = bot.inventory.findIndex((x) => x?.itemId === itemId);
      const sell = slot >= 0 && rnd() < 0.5;
      const price = prices.get(itemId);
      if (!price) continue;
      state.inFlight = sell
        ? { action: 'sell', itemId, quantity, unitCoins: price.sellPrice }
        : { action: 'buy', itemId, quantity, unitCoins: price.buyPrice };
      const data = sell ? { storeId: GENERAL_STORE, slot, quantity } : { storeId: GENERAL_STORE, itemId, quantity };
      try {
        const answer = await bot.request(sell ? 'shop:sell' : 'shop:buy', data, (e) => e.type === 'shop:state' && e.data.last, T);
        const last = answer.data.last as { action: string; itemId: string; quantity: number; coins: number };
        const sign = last.action === 'bought' ? 1 : -1;
        addTotals(state.expected, { [last.itemId]: sign * last.quantity });
        addTotals(state.expected, { coins: -sign * last.coins });
        state.expected = sortedTotals(state.expected);
        state.inFlight = null;
        ack(ctx, bot, sell ? 'shop:sell' : 'shop:buy');
        for (const i of answer.data.items) prices.set(i.itemId, { buyPrice: i.buyPrice, sellPrice: i.sellPrice });
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        bump(ctx.refused, error.code);
        // OUTCOME_UNKNOWN is not a refusal: the commit was cut and may have happened. The operation stays in flight,
        // and the bot enters again to read what the server holds (reconcile, at the top of the loop).
        if (error.code === OUTCOME_UNKNOWN) {
          await bot.disconnect();
          continue;
        }
        state.inFlight = null;
      }
    } catch (error) {
      await recover([bot], ctx, error);
    }
  }
  await bot.disconnect();
}
