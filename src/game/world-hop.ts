/**
 * Whether a character may hop to another world now (docs/protocol.md `world:hop`): not into the world it is in,
 * not while it trades (an open trade or a pending request either way), not in a dialogue, and not within
 * HOP_COMBAT_COOLDOWN_MS of the last hit it gave or took. The world's existence and room are the caller's
 * (they live in the matchmaker).
 */
import { TICK_MS } from './ticks.ts';

/** Ticks after the last hit given or taken before a hop is allowed: RuneScape's "10 seconds", counted in ticks. */
export const HOP_COMBAT_TICKS = 17;
/** The same in time: 17 ticks of 600 ms, 10.2 s (what the message and the docs say). */
export const HOP_COMBAT_COOLDOWN_MS = HOP_COMBAT_TICKS * TICK_MS;

export interface HopSituation {
  from: number;
  to: number;
  trading: boolean;
  inDialogue: boolean;
  /** The tick of the last hit the character gave or took (-Infinity: none). */
  lastCombatTick: number;
  tick: number;
}

export interface HopRefusal {
  code: 'HOP_SAME_WORLD' | 'HOP_WHILE_TRADING' | 'HOP_IN_DIALOGUE' | 'HOP_IN_COMBAT' | 'LEAVE_IN_COMBAT';
  message: string;
  details?: Record<string, unknown>;
}

export function hopRefusal(s: HopSituation): HopRefusal | undefined {
  if (s.to === s.from) return { code: 'HOP_SAME_WORLD', message: `You are already in world ${s.to}` };
  if (s.trading) return { code: 'HOP_WHILE_TRADING', message: 'Finish or cancel your trade (and trade requests) before changing worlds' };
  if (s.inDialogue) return { code: 'HOP_IN_DIALOGUE', message: 'Close the dialogue before changing worlds' };
  const waitTicks = s.lastCombatTick + HOP_COMBAT_TICKS - s.tick;
  if (waitTicks > 0) {
    return {
      code: 'HOP_IN_COMBAT', message: `You cannot change worlds within ${HOP_COMBAT_TICKS} ticks (${HOP_COMBAT_COOLDOWN_MS / 1000} s) of combat`,
      details: { retryAfterSeconds: Math.ceil((waitTicks * TICK_MS) / 1000) },
    };
  }
  return undefined;
}

/**
 * Whether the character may leave the world now (docs/protocol.md "Entering and leaving the world"): as in RuneScape,
 * not within HOP_COMBAT_TICKS of the last hit it gave or took — leaving and entering again must not dodge the rule
 * that holds back a hop. `retryAfterSeconds` says when it may.
 */
export function leaveRefusal(lastCombatTick: number, tick: number): HopRefusal | undefined {
  const waitTicks = lastCombatTick + HOP_COMBAT_TICKS - tick;
  if (waitTicks <= 0) return undefined;
  return {
    code: 'LEAVE_IN_COMBAT', message: `You cannot leave the world within ${HOP_COMBAT_TICKS} ticks of combat`,
    details: { retryAfterSeconds: Math.ceil((waitTicks * TICK_MS) / 1000) },
  };
}
