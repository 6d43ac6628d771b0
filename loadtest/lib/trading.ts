/**
 * Trading bots: pairs of seeded characters side by side, one holding coins and one feathers, and one complete
 * two-screen trade over /ws (request, respond, one add per side, both accepts on both screens, the swap).
 * Used by the trade benchmark (trade-bench.ts) and the `traders` load scenario.
 */
import type { Config } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { freeTiles, seedCharacters, type SeededWalker } from './seed.ts';
import { joinPhase, type NotJoined } from './join-phase.ts';
import { enterWorld, type BotSocket } from './ws-bot.ts';

export interface TradingPair {
  a: SeededWalker;
  b: SeededWalker;
}

/** Enough stock that no run trades a side empty (one coin or feather per trade). */
const STOCK = 1_000_000_000;

export async function seedTradingPairs(db: Database, data: GameData, config: Pick<Config, 'jwtIssuer' | 'jwtAudience'>, secret: string, pairs: number, seed = 7): Promise<TradingPair[]> {
  const tiles = freeTiles(data, pairs, seed, true);
  const seeded = await seedCharacters(db, config, secret, tiles.flatMap((tile) => [
    { ...tile, inventory: [{ itemId: 'coins', quantity: STOCK }] },
    { x: tile.x + 1, z: tile.z, inventory: [{ itemId: 'feather', quantity: STOCK }] },
  ]));
  return tiles.map((_tile, i) => ({ a: seeded[2 * i], b: seeded[2 * i + 1] }));
}

/**
 * One complete trade; returns the milliseconds from the last accept to tradeCompleted (the swap's latency). A trade
 * that fails on the way is cancelled, so the pair can start the next one.
 */
export async function trade(a: BotSocket, b: BotSocket, aId: string, bId: string): Promise<number> {
  const incoming = b.next('tradeIncoming', (d) => d.fromPlayerId === aId);
  a.send('tradeRequest', { targetPlayerId: bId });
  const { tradeId } = (await incoming).data;
  try {
    return await completeTrade(a, b, tradeId);
  } catch (error) {
    a.send('tradeCancel', { tradeId });
    throw error;
  }
}

async function completeTrade(a: BotSocket, b: BotSocket, tradeId: string): Promise<number> {
  const startedA = a.next('tradeStarted', (d) => d.tradeId === tradeId);
  const startedB = b.next('tradeStarted', (d) => d.tradeId === tradeId);
  b.send('tradeRequestRespond', { tradeId, accept: true });
  await Promise.all([startedA, startedB]);
  const offered = a.next('tradeUpdated', (d) => d.tradeId === tradeId && d.myOffer.items.length === 1 && d.theirOffer.items.length === 1);
  a.send('tradeAddItem', { tradeId, inventorySlot: 0, quantity: 1 });
  b.send('tradeAddItem', { tradeId, inventorySlot: 0, quantity: 1 });
  await offered;
  const seenA = b.next('tradeUpdated', (d) => d.tradeId === tradeId && d.theirOffer.accepted);
  a.send('tradeAccept', { tradeId });
  await seenA;
  const confirm = a.next('tradeConfirmScreen', (d) => d.tradeId === tradeId);
  b.send('tradeAccept', { tradeId });
  await confirm;
  const seenA2 = b.next('tradeUpdated', (d) => d.tradeId === tradeId && d.screen === 'confirm' && d.theirOffer.accepted);
  a.send('tradeAccept', { tradeId });
  await seenA2;
  const doneA = a.next('tradeCompleted', (d) => d.tradeId === tradeId);
  const doneB = b.next('tradeCompleted', (d) => d.tradeId === tradeId);
  const lastAccept = performance.now();
  b.send('tradeAccept', { tradeId });
  await Promise.all([doneA, doneB]);
  return performance.now() - lastAccept;
}

/**
 * Brings each pair's two bots into the world over /ws, a batch of pairs at a time, within the join phase's deadline
 * (lib/join-phase.ts); a pair that fails or is given up stays empty and is named in `notJoined`.
 */
export async function enterPairs(wsUrl: string, pairs: TradingPair[], options: { log: (line: string) => void; batch: number; deadlineMs: number }): Promise<{ sockets: Array<[BotSocket, BotSocket] | undefined>; notJoined: NotJoined[] }> {
  const sockets: Array<[BotSocket, BotSocket] | undefined> = pairs.map(() => undefined);
  const { notJoined } = await joinPhase(pairs.map((pair, i) => ({ pair, i })), {
    ...options,
    name: ({ pair }) => `${pair.a.name}+${pair.b.name}`,
    start: async ({ pair, i }, signal) => {
      const a = await enterWorld(wsUrl, pair.a);
      try {
        const b = await enterWorld(wsUrl, pair.b);
        if (signal.aborted) b.close();
        else sockets[i] = [a, b];
      } finally {
        if (!sockets[i]) a.close();
      }
    },
  });
  return { sockets, notJoined };
}
