/**
 * The economy soak's bots (loadtest/lib/soak/bots.ts: trader pairs that bank, drop, pick up and trade; shoppers
 * that buy and sell with an exact ledger) on the chaos cluster: each entry goes to a random reachable process, and a
 * trader pair enters one world number (trades stay inside a world). Everything else — the operations, the
 * ledgers, what a timeout or a closed socket does — is the soak's.
 */
import { Bot, newSoakContext, type SoakContext } from '../soak/bots.ts';
import type { SeededCharacter } from '../soak/ledger.ts';
import type { SoakEvent } from '../soak/socket.ts';

/** Events that acknowledge an operation of the soak's bots. */
const ACKNOWLEDGING = new Set(['bank:state', 'inventory:dropped', 'groundItem:pickedUp', 'tradeCompleted', 'shop:state']);

export class ClusterBot extends Bot {
  readonly world: number | undefined;
  private readonly pickEntry: () => string | undefined;
  /** When this bot last saw an operation acknowledged (the availability check reads it). */
  lastAckAt = 0;
  /** The last refusal it got (for the availability check's examples). */
  lastProblem = '';
  /**
   * The connection is open but no longer in a world (`world:left` it did not ask for, or `NOT_IN_WORLD`, e.g. its
   * world's process went away behind a hand-over): the bot enters again instead of sending into the void.
   */
  private outOfWorld = false;
  /** The process the last entry went through (for the availability check's examples). */
  private enteredThrough: string | null = null;

  constructor(me: SeededCharacter, token: string, world: number | undefined, pickEntry: () => string | undefined) {
    super(me, token);
    this.world = world;
    this.pickEntry = pickEntry;
  }

  protected override entryUrl(): string | null {
    this.enteredThrough = this.pickEntry() ?? null;
    return this.enteredThrough;
  }

  protected override entryData(): Record<string, unknown> {
    return { token: this.token, characterId: this.id, ...(this.world ? { world: this.world } : {}) };
  }

  override online(ctx: SoakContext): boolean {
    return super.online(ctx) && !this.outOfWorld;
  }

  protected override entryFailed(what: string): void {
    this.lastProblem = `${what} (entered through ${this.enteredThrough ?? '?'}, world ${String(this.world ?? '?')})`;
  }

  protected override observe(e: SoakEvent): void {
    super.observe(e);
    if (e.type === 'world:joined') this.outOfWorld = false;
    if (e.type === 'world:left' || (e.type === 'error' && e.data?.code === 'NOT_IN_WORLD')) this.outOfWorld = true;
    if (ACKNOWLEDGING.has(e.type)) this.lastAckAt = Date.now();
    if (e.type === 'error' || e.type === 'tradeError') {
      this.lastProblem = `${String(e.data?.event ?? e.type)} refused ${String(e.data?.code)} ("${String(e.data?.message ?? '')}", entered through ${this.enteredThrough ?? '?'}, world ${String(this.world ?? '?')})`;
    }
  }
}

/** The soak context the economy bots share on the cluster (no server generations: a bot reconnects when its socket fails). */
export function clusterSoakContext(opTimeoutMs: number): SoakContext {
  return newSoakContext({ wsUrl: null, stopAt: 0, opTimeoutMs });
}
