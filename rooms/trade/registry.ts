/**
 * Open trades of this process, for the TradeRoom: a room may only be created for a session the server opened
 * (with its secret room key, claimed once), and only accounts taking part in an open trade pass its onAuth.
 * Trade rooms therefore live in the process of the world that opened them.
 */
import type { TradeSession } from './trade-session.ts';

const awaitingRoom = new Map<string, TradeSession>();
const accountsTrading = new Map<string, number>();

export function registerSession(session: TradeSession): void {
  awaitingRoom.set(session.id, session);
  for (const side of session.sides()) accountsTrading.set(side.player.accountId, (accountsTrading.get(side.player.accountId) ?? 0) + 1);
}

export function unregisterSession(session: TradeSession): void {
  if (awaitingRoom.get(session.id) === session) awaitingRoom.delete(session.id);
  for (const side of session.sides()) {
    const left = (accountsTrading.get(side.player.accountId) ?? 1) - 1;
    if (left <= 0) accountsTrading.delete(side.player.accountId);
    else accountsTrading.set(side.player.accountId, left);
  }
}

/** The session a room is being created for, when the caller knows its key; a session can be claimed once. */
export function claimSession(tradeId: unknown, key: unknown): TradeSession | undefined {
  if (typeof tradeId !== 'string' || typeof key !== 'string') return undefined;
  const session = awaitingRoom.get(tradeId);
  if (!session || session.roomKey !== key || session.ended) return undefined;
  awaitingRoom.delete(tradeId);
  return session;
}

export function accountIsTrading(accountId: string): boolean {
  return accountsTrading.has(accountId);
}
