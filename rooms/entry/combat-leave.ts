/**
 * RuneScape's rule for leaving during a fight (docs/protocol.md "Entering and leaving the world"): a character
 * cannot leave the world within 17 ticks of the last hit it gave or took (src/game/world-hop.ts `leaveRefusal`), so
 * leaving and entering again cannot dodge the rule that holds back a hop. A /ws `world:leave` is refused
 * `LEAVE_IN_COMBAT`; an SDK client's consented leave cannot be refused (its socket is gone), so the character stays
 * in the world — as after a dropped connection — until the timer ends, then leaves as usual. Meanwhile a join of the
 * character on this process is refused `LEAVE_IN_COMBAT` with `retryAfterSeconds` (on another process its claim on
 * the world answers `ALREADY_ONLINE`).
 */
import { gameContext, type GameContext } from '../../src/context.ts';
import { GameError } from '../../src/game/refusal.ts';
import { TICK_MS } from '../../src/game/ticks.ts';
import { leaveRefusal } from '../../src/game/world-hop.ts';

/** A fight that never ends (an NPC that keeps hitting) does not hold a character forever: it leaves after this. */
const MAX_LINGER_MS = 5 * 60_000;

/** Per running server: characters staying on after a leave in combat, and when they may go (estimate, ms). */
const lingering = new WeakMap<GameContext, Map<string, number>>();

function lingerers(): Map<string, number> {
  const context = gameContext();
  let map = lingering.get(context);
  if (!map) lingering.set(context, (map = new Map()));
  return map;
}

/** The refusal of a /ws `world:leave` now, if the character fought within the last 17 ticks. */
export function combatLeaveRefusal(lastCombatTick: number, tick: number): GameError | undefined {
  const refusal = leaveRefusal(lastCombatTick, tick);
  return refusal && new GameError(refusal.code, refusal.message, refusal.details);
}

/** For an entry: LEAVE_IN_COMBAT while the character stays on in the world it left during a fight. */
export function assertNotLingering(characterId: unknown): void {
  if (typeof characterId !== 'string') return;
  const until = lingerers().get(characterId);
  if (until === undefined) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
  throw new GameError('LEAVE_IN_COMBAT', 'That character left during a fight and stays in its world until 17 ticks after it', { retryAfterSeconds });
}

/** What the waiting needs of the world and the player. */
export interface Lingerer {
  readonly id: string;
  readonly lastCombatTick: number;
}

/**
 * Keeps a character that left in combat in the world until its combat timer ends (checked every tick), or the world
 * stops (`stopped`): the returned promise resolves then. Undefined, at once, when it did not fight within the last
 * 17 ticks (it leaves now). From this call on, its entries are refused (assertNotLingering).
 */
export function lingerInCombat(player: Lingerer, currentTick: () => number, stopped: () => boolean): Promise<void> | undefined {
  if (!leaveRefusal(player.lastCombatTick, currentTick())) return undefined;
  const map = lingerers();
  const startedAt = Date.now();
  const untilEstimate = () => {
    const refusal = leaveRefusal(player.lastCombatTick, currentTick());
    return Date.now() + Number(refusal?.details?.retryAfterSeconds ?? 0) * 1000;
  };
  map.set(player.id, untilEstimate());
  return new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const done = stopped() || !leaveRefusal(player.lastCombatTick, currentTick()) || Date.now() - startedAt > MAX_LINGER_MS;
      if (!done) return void map.set(player.id, untilEstimate());
      clearInterval(timer);
      map.delete(player.id);
      resolve();
    }, TICK_MS);
  });
}
