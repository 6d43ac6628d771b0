/**
 * A Colyseus SDK bot (@colyseus/sdk, `updates: "json"`) beside the bank booth: it walks between two tiles within
 * the booth's reach and banks its own items (deposit, withdraw), so its per-character ledger never changes — the
 * checker holds it to its seed exactly — and the last `bank:state` it saw acknowledged must be the bank the database
 * holds at the end. It is a "two sessions" witness like the /ws bots: a room that stops answering is kept open
 * (automatic reconnection off) and probed, and the bot joins again through another process.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type Room } from '@colyseus/sdk';
import { askForMyWorld, bump, pickEntry, Refused, type BotEnv, type ChaosCharacter } from './bot-env.ts';
import { MoveLedger, SessionWatch, type ProbedSession } from './sessions.ts';

type Item = { itemId: string; quantity: number };

class Timeout extends Error {}
class Closed extends Error {}

class SdkSession implements ProbedSession {
  readonly label: string;
  readonly enteredAt = Date.now();
  readonly moves = new MoveLedger();
  readonly room: Room;
  readonly entry: string;
  private readonly home: { x: number; z: number };
  private open = true;
  closedByBot = false;
  private waiters: Array<{ match: (type: string, data: any) => boolean; resolve: (data: any) => void; fail: (error: Error) => void }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any

  constructor(room: Room, entry: string, home: { x: number; z: number }, onMessage: (session: SdkSession, type: string, data: any) => void, onClose: (session: SdkSession, code: number) => void) { // eslint-disable-line @typescript-eslint/no-explicit-any
    this.room = room;
    this.entry = entry;
    this.home = home;
    this.label = `SDK via ${entry}, room ${room.roomId}`;
    room.reconnection.enabled = false;
    // The world:update stream is not read (registered so the SDK does not warn about it).
    room.onMessage('world:update', () => undefined);
    room.onMessage('*', (type, data) => {
      onMessage(this, String(type), data);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(String(type), data)) return true;
        w.resolve({ type: String(type), data });
        return false;
      });
    });
    room.onLeave((code) => {
      this.open = false;
      for (const waiter of this.waiters.splice(0)) waiter.fail(new Closed(`closed with ${code}`));
      onClose(this, code);
    });
  }

  probe(step: number): void {
    if (!this.open) return;
    try {
      this.moves.sent();
      this.room.send('player:move', { x: this.home.x + (step % 2), z: this.home.z });
    } catch {
      // closed meanwhile
    }
  }

  isOpen(): boolean {
    return this.open;
  }

  close(): void {
    if (!this.open) return;
    this.closedByBot = true;
    this.open = false;
    // Consented: a dropped connection would keep a reconnection seat for 20 s.
    void this.room.leave(true).catch(() => undefined);
  }

  /** Sends a message; resolves with the answer `done` accepts; Refused on an `error` for it; Timeout after `ms`. */
  request(type: string, data: unknown, done: (type: string, data: any) => boolean, ms: number): Promise<{ type: string; data: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Timeout(`${type}: no answer within ${ms} ms`));
      }, ms);
      const waiter = {
        match: (t: string, d: any) => done(t, d) || (t === 'error' && (d?.event === type || d?.code === 'RATE_LIMITED')), // eslint-disable-line @typescript-eslint/no-explicit-any
        resolve: (answer: { type: string; data: any }) => { // eslint-disable-line @typescript-eslint/no-explicit-any
          clearTimeout(timer);
          if (answer.type === 'error') reject(new Refused(String(answer.data?.code)));
          else resolve(answer);
        },
        fail: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.push(waiter);
      try {
        if (type === 'player:move') this.moves.sent();
        this.room.send(type, data);
      } catch (error) {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(error);
      }
    });
  }
}

export interface SdkBanker {
  me: ChaosCharacter;
  lastAckAt: number;
  inventory: Array<Item | null>;
  /** The bank of the last acknowledged `bank:state`, and whether a bank operation went unanswered after it. */
  bank: Item[] | null;
  bankUncertain: boolean;
  /** What went wrong last (for the availability check's examples). */
  lastProblem: string;
}

export async function sdkBankerLoop(bot: SdkBanker, env: BotEnv, rnd: () => number): Promise<void> {
  const watch = new SessionWatch(bot.me.name, env.violations, env.stats.sessions);
  const ticker = setInterval(() => watch.tick(), 1_000);
  const T = env.opTimeoutMs;
  let session: SdkSession | null = null;
  let avoid: string | undefined;
  const onMessage = (s: SdkSession, type: string, data: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (type === 'player:path') watch.answered(s);
    if (s !== session) return;
    if (type === 'player:sync' && Array.isArray(data?.inventory)) bot.inventory = data.inventory;
    if (type === 'bank:state' && Array.isArray(data?.tabs)) {
      bot.bank = data.tabs.flatMap((tab: { items: Item[] }) => tab.items);
      bot.bankUncertain = false;
    }
  };
  const onClose = (s: SdkSession, code: number) => {
    if (!s.closedByBot) watch.closed(code);
  };

  async function join(): Promise<SdkSession | null> {
    const node = pickEntry(env, rnd, avoid);
    if (!node) return null;
    const world = rnd() < 0.3 ? undefined : 1 + Math.floor(rnd() * env.worlds);
    const joining = new Client(node.baseUrl, { headers: { Authorization: `Bearer ${bot.me.token}` } })
      .join('world', { characterId: bot.me.id, updates: 'json', ...(world ? { world } : {}) });
    let timedOut = false;
    try {
      const room = await Promise.race([joining, sleep(env.entryTimeoutMs).then(() => {
        timedOut = true;
        throw new Timeout('join: no answer');
      })]);
      env.stats.entries++;
      return new SdkSession(room, node.name, bot.me.home, onMessage, onClose);
    } catch (error) {
      if (timedOut) {
        env.stats.timeouts++;
        bot.lastProblem = `join through ${node.name} unanswered`;
        // A join that completes after the bot gave up is left at once (consented: it saves and frees the seat).
        void joining.then((late) => late.leave(true), () => undefined);
      } else {
        const code = /^([A-Z][A-Z_]{2,})\b/.exec(String((error as Error).message))?.[1] ?? 'JOIN_ERROR';
        bump(env.stats.refused, code);
        bot.lastProblem = `join refused ${code}`;
      }
      return null;
    }
  }

  try {
    for (let round = 0; round < 1_000_000 && Date.now() < env.stopAt(); round++) {
      if (!session || !session.isOpen()) {
        const revived = watch.revive() as SdkSession | undefined;
        session = revived ?? await join();
        if (!session) {
          await sleep(300 + rnd() * 400);
          continue;
        }
        if (!revived) {
          watch.joined(session);
          bot.bank = null;
        }
      }
      const r = rnd();
      let bankOp = false;
      try {
        if (r < 0.5) {
          await session.request('player:move', { x: bot.me.home.x + Math.floor(rnd() * 2), z: bot.me.home.z }, (t) => t === 'player:path', T);
          bump(env.stats.acked, 'sdk:move');
        } else {
          bankOp = true;
          if (bot.bank === null) await session.request('bank:open', {}, (t) => t === 'bank:state', T);
          const filled = bot.inventory.flatMap((item, slot) => (item ? [slot] : []));
          if ((rnd() < 0.5 || bot.bank!.length === 0) && filled.length > 0) {
            const slot = filled[Math.floor(rnd() * filled.length)];
            const quantity = 1 + Math.floor(rnd() * Math.min(bot.inventory[slot]!.quantity, 20));
            await session.request('bank:deposit', { slot, quantity }, (t) => t === 'bank:state', T);
            bump(env.stats.acked, 'sdk:bank:deposit');
          } else if (bot.bank!.length > 0) {
            const entry = bot.bank![Math.floor(rnd() * bot.bank!.length)];
            await session.request('bank:withdraw', { itemId: entry.itemId, quantity: 1 + Math.floor(rnd() * Math.min(entry.quantity, 20)) }, (t) => t === 'bank:state', T);
            bump(env.stats.acked, 'sdk:bank:withdraw');
          }
        }
        bot.lastAckAt = Date.now();
      } catch (error) {
        if (error instanceof Refused) {
          bump(env.stats.refused, error.code);
          bot.lastProblem = `refused ${error.code}`;
          // Not a refusal: the commit was cut and may have happened (docs/errors.md OUTCOME_UNKNOWN).
          if (bankOp && error.code === 'OUTCOME_UNKNOWN') bot.bankUncertain = true;
        } else if (error instanceof Timeout) {
          env.stats.timeouts++;
          bot.lastProblem = `${session.label}: no answer`;
          if (bankOp) bot.bankUncertain = true;
          avoid = session.entry;
          watch.abandon(session);
          askForMyWorld(env, rnd, bot.me.token, avoid);
          session = null;
        } else {
          // The room's connection is gone (send on a closed socket).
          if (bankOp) bot.bankUncertain = true;
          session = null;
        }
      }
      await sleep(100 + rnd() * 200);
    }
  } finally {
    clearInterval(ticker);
    if (session?.isOpen()) {
      session.closedByBot = true;
      await Promise.race([session.room.leave(true).catch(() => undefined), sleep(3_000)]);
    }
    watch.closeAll();
  }
}
