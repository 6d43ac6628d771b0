/**
 * The WORLDS_MIN standing worlds (docs/worlds.md): numbers 1 to WORLDS_MIN are kept open. Opened at start, and
 * checked every half lease time on every process: a standing number without a live lease (its process died, or
 * lost the world) is opened again, by its number — the new world takes the number over with a newer epoch
 * (src/db/worlds.ts), which PostgreSQL allows only once the old lease has lapsed by its clock. The cluster's short
 * lock keeps two processes from opening the same numbers at once; the matchmaker places the world. An entry of this
 * process that finds no world with a free seat runs the check first (or waits for the one under way) rather than
 * open a world beside the one being reopened (world-choice.ts).
 */
import { matchMaker } from '@colyseus/core';
import type { Database } from '../../src/db/database.ts';
import { liveWorlds, WORLD_NUMBER_HELD } from '../../src/db/worlds.ts';
import type { Logger } from '../../src/logger.ts';
import { followStandingWorlds, standingWorld, WORLD_ROOM } from '../entry/world-choice.ts';

export interface StandingWorldsOptions {
  db: Database;
  worldsMin: number;
  everyMs: number;
  /** Runs the work under the cluster's world lock (undefined: another process holds it). */
  lock<T>(work: () => Promise<T>): Promise<T | undefined>;
  logger: Logger;
}

/** How long start-up waits for the standing worlds when another process is opening them. */
const START_WAIT_MS = 20_000;

export class StandingWorlds {
  private readonly options: StandingWorldsOptions;
  private timer: NodeJS.Timeout | undefined;
  /** The check under way, if any: the timer's, the start's and entries' (world-choice.ts) share it. */
  private checking: Promise<number> | undefined;

  constructor(options: StandingWorldsOptions) {
    this.options = options;
    followStandingWorlds(() => this.check());
  }

  /** The numbers 1…WORLDS_MIN that hold no live lease. */
  async missing(): Promise<number[]> {
    const live = new Set((await liveWorlds(this.options.db)).map((world) => world.number));
    const missing: number[] = [];
    for (let number = 1; number <= this.options.worldsMin; number++) if (!live.has(number)) missing.push(number);
    return missing;
  }

  /** Opens the missing standing worlds, under the lock; the number opened (0 when another process held the lock). */
  private async ensure(): Promise<number> {
    if ((await this.missing()).length === 0) return 0;
    const opened = await this.options.lock(async () => this.openNumbers(await this.missing()));
    if (opened) this.options.logger.info({ processId: matchMaker.processId, opened }, 'opened the standing worlds that held no live lease');
    return opened ?? 0;
  }

  /** Opens these standing numbers; one that an entry's world took meanwhile is standing already and is skipped. */
  private async openNumbers(numbers: readonly number[]): Promise<number> {
    let opened = 0;
    for (const number of numbers) {
      try {
        await matchMaker.createRoom(WORLD_ROOM, standingWorld(number));
        opened++;
      } catch (error) {
        if ((error as { code?: unknown }).code !== WORLD_NUMBER_HELD) throw error;
      }
    }
    return opened;
  }

  /** `ensure`, or the one under way. */
  private ensureOnce(): Promise<number> {
    return (this.checking ??= this.ensure().finally(() => (this.checking = undefined)));
  }

  /** Checks now, or waits for the check under way; never rejects (a failed check is logged, and the next one runs). */
  check(): Promise<void> {
    return this.ensureOnce().then(
      () => undefined,
      (error: unknown) => this.options.logger.warn({ err: error }, 'could not check the standing worlds'),
    );
  }

  /** At start: the standing worlds exist when this resolves (this process opened them, or another did). */
  async open(): Promise<void> {
    const deadline = Date.now() + START_WAIT_MS;
    while (Date.now() < deadline) {
      await this.ensureOnce();
      if ((await this.missing()).length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the standing worlds did not open and the world lock stayed taken');
  }

  /** Checks again every `everyMs` until stopped. */
  keep(): void {
    this.timer = setInterval(() => void this.check(), this.options.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    followStandingWorlds(undefined);
    await this.checking?.catch(() => undefined);
  }
}
