/**
 * The `worlds` and `character_worlds` rows (docs/worlds.md, docs/scaling.md "Leases and fencing"). Every process
 * that shares the database sees them, so they hold the rules that must hold across processes:
 *
 * - **A world number is owned through a lease.** A row holds the number, the room that owns it, an `epoch` taken
 *   from a sequence (it only grows) and `lease_until`, a time on PostgreSQL's clock. The owner renews it while it is
 *   live; once it has lapsed by that clock another process may take the number over, with a new epoch. A failed
 *   health check frees nothing.
 * - **Writes are fenced.** A world's writes run `assertWorldFence` in their transaction: it locks the world's row
 *   (`for share`, so a takeover waits for the write to commit) and refuses unless the epoch is the current one and
 *   the lease is live; with character ids, each must be claimed by that world and epoch. A process that wakes up
 *   after losing its world cannot write, even once.
 * - **A character is in at most one world** (the primary key of `character_worlds`). A claim names the world and its
 *   epoch, and counts only while that world's row has the same epoch and a live lease: a claim on a lapsed or
 *   taken-over world is stale, and the next entry takes it over.
 */
import type { Database } from './database.ts';
import type { SqlEntityManager as Transaction } from '@mikro-orm/sql';
import { GameError } from '../game/refusal.ts';

/** How many times opening a world retries after another process took the number it picked. */
const NUMBER_ATTEMPTS = 20;

/** A world's number and the epoch of its lease: what its writes are fenced with. */
export interface WorldFence {
  readonly world: number;
  readonly epoch: number;
}

/** A world row whose lease is live. */
export interface LiveWorld {
  number: number;
  roomId: string;
  processId: string;
  epoch: number;
}

const LIVE = 'lease_until > clock_timestamp()';
/** The update of an `insert … on conflict (number)` that takes a lapsed number over. */
const TAKE_OVER = `room_id = excluded.room_id, process_id = excluded.process_id, epoch = excluded.epoch,
  lease_until = excluded.lease_until, opened_at = now(), heartbeat_at = now()`;

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || /duplicate key|unique constraint/i.test(String((error as Error | null)?.message));
}

/** The refusal of a write whose world no longer holds its lease. */
export function worldUnavailable(): GameError {
  return new GameError('WORLD_UNAVAILABLE', 'This world no longer holds its lease; enter again');
}

/** The code of WorldNumberHeld (the matchmaker passes a failed room creation on with its error's code). */
export const WORLD_NUMBER_HELD = 'WORLD_NUMBER_HELD';

/** A standing world's number (1…WORLDS_MIN) that another world holds a live lease on: that world is the standing one. */
export class WorldNumberHeld extends Error {
  readonly code = WORLD_NUMBER_HELD;
  constructor(world: number) {
    super(`world ${world} is held by a live lease`);
  }
}

/**
 * Takes a number for the room, with a new epoch and a lease of `leaseSeconds`: `number` when given (a standing
 * world's), else the smallest number that no live lease holds. A number is free when absent or lapsed by
 * PostgreSQL's clock (a takeover). A `number` held by a live lease is refused with WorldNumberHeld.
 */
export async function openWorld(db: Database, roomId: string, processId: string, leaseSeconds: number, number?: number): Promise<WorldFence> {
  const connection = db.em.getConnection();
  if (number !== undefined) {
    const [row] = await connection.execute<Array<{ number: number; epoch: string | number }>>(
      `insert into worlds (number, room_id, process_id, epoch, lease_until)
       values (?, ?, ?, nextval('world_epochs'), clock_timestamp() + make_interval(secs => ?))
       on conflict (number) do update set ${TAKE_OVER} where not (worlds.${LIVE})
       returning number, epoch`, [number, roomId, processId, leaseSeconds]);
    if (!row) throw new WorldNumberHeld(number);
    return { world: Number(row.number), epoch: Number(row.epoch) };
  }
  for (let attempt = 0; attempt < NUMBER_ATTEMPTS; attempt++) {
    try {
      const [row] = await connection.execute<Array<{ number: number; epoch: string | number }>>(
        `insert into worlds (number, room_id, process_id, epoch, lease_until)
         select min(candidate.number), ?, ?, nextval('world_epochs'), clock_timestamp() + make_interval(secs => ?) from (
           select 1 as number where not exists (select 1 from worlds where number = 1 and ${LIVE})
           union all
           select w.number + 1 from worlds w where w.${LIVE}
             and not exists (select 1 from worlds n where n.number = w.number + 1 and n.${LIVE})
           union all
           select number from worlds where not (${LIVE})
         ) candidate
         on conflict (number) do update set ${TAKE_OVER} where not (worlds.${LIVE})
         returning number, epoch`, [roomId, processId, leaseSeconds]);
      if (row) return { world: Number(row.number), epoch: Number(row.epoch) };
    } catch (error) {
      // Two processes picked the same free number at once: the loser picks again.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('could not find a free world number');
}

/** Renews a live lease; false when it lapsed or another epoch holds the number (the world is lost for good). */
export async function renewLease(db: Database, fence: WorldFence, leaseSeconds: number): Promise<boolean> {
  const rows = await db.em.getConnection().execute<Array<{ number: number }>>(
    `update worlds set lease_until = clock_timestamp() + make_interval(secs => ?), heartbeat_at = now()
     where number = ? and epoch = ? and ${LIVE} returning number`, [leaseSeconds, fence.world, fence.epoch]);
  return rows.length === 1;
}

/** The world closed: its number is free again and the claims on it go (only while this epoch still owns it). */
export async function closeWorld(db: Database, fence: WorldFence): Promise<void> {
  const connection = db.em.getConnection();
  await connection.execute('delete from character_worlds where world = ? and epoch = ?', [fence.world, fence.epoch]);
  await connection.execute('delete from worlds where number = ? and epoch = ?', [fence.world, fence.epoch]);
}

/** The worlds whose lease is live (number, room, process, epoch), lowest number first. */
export async function liveWorlds(db: Database): Promise<LiveWorld[]> {
  const rows = await db.em.getConnection().execute<Array<{ number: number; room_id: string; process_id: string; epoch: string | number }>>(
    `select number, room_id, process_id, epoch from worlds where ${LIVE} order by number`);
  return rows.map((row) => ({ number: Number(row.number), roomId: row.room_id, processId: row.process_id, epoch: Number(row.epoch) }));
}

/** The only process of its database starts (no REDIS_URL): no world of an earlier run is open any more. */
export async function forgetAllWorlds(db: Database): Promise<void> {
  const connection = db.em.getConnection();
  await connection.execute('delete from character_worlds');
  await connection.execute('delete from worlds');
}

/**
 * In a world's transaction: refuses (WORLD_UNAVAILABLE, the transaction rolls back) unless `fence` is the world's
 * current epoch with a live lease and each of `characterIds` is claimed by it. Locks the world's row for share, so a
 * takeover of the number waits until this transaction has committed or rolled back.
 */
export async function assertWorldFence(tx: Transaction, fence: WorldFence, characterIds: readonly string[] = []): Promise<void> {
  const [world] = await tx.execute<Array<{ number: number }>>(
    `select number from worlds where number = ? and epoch = ? and ${LIVE} for share`, [fence.world, fence.epoch]);
  if (!world) throw worldUnavailable();
  if (characterIds.length === 0) return;
  const claims = await tx.execute<Array<{ character_id: string }>>(
    `select character_id from character_worlds where world = ? and epoch = ? and character_id in (${characterIds.map(() => '?').join(', ')})`,
    [fence.world, fence.epoch, ...characterIds]);
  if (claims.length !== new Set(characterIds).size) throw worldUnavailable();
}

/**
 * For a single statement that saves a character (safe to lose: experience, run energy): a condition on
 * `characters` row `alias` that holds only while the world of `fence` claims the character with a live lease.
 */
export function heldBy(fence: WorldFence, alias: string): { sql: string; params: unknown[] } {
  return {
    sql: `exists (select 1 from character_worlds cw join worlds w on w.number = cw.world and w.epoch = cw.epoch
                  where cw.character_id = ${alias}.id and cw.world = ? and cw.epoch = ? and w.${LIVE})`,
    params: [fence.world, fence.epoch],
  };
}

/**
 * Puts the character in the world of `fence`: true when it was in none (or only in a world whose claim is stale),
 * false when a live world — this one included — holds it, on any process. Refused outright (false) unless `fence`
 * holds a live lease.
 */
export async function claimWorld(db: Database, characterId: string, fence: WorldFence, roomId: string): Promise<boolean> {
  const rows = await db.em.getConnection().execute<Array<{ world: number }>>(
    `insert into character_worlds (character_id, world, room_id, epoch)
     select ?, ?, ?, ? where exists (select 1 from worlds where number = ? and epoch = ? and ${LIVE})
     on conflict (character_id) do update set world = excluded.world, room_id = excluded.room_id, epoch = excluded.epoch, entered_at = now()
       where not exists (select 1 from worlds w where w.number = character_worlds.world and w.epoch = character_worlds.epoch and w.${LIVE})
     returning world`, [characterId, fence.world, roomId, fence.epoch, fence.world, fence.epoch]);
  return rows.length === 1;
}

/** The character left the world of `fence` (a claim on another world, or another epoch, is left alone). */
export async function releaseWorld(db: Database, characterId: string, fence: WorldFence): Promise<void> {
  await db.em.getConnection().execute('delete from character_worlds where character_id = ? and world = ? and epoch = ?', [characterId, fence.world, fence.epoch]);
}

/** A claim that counts: its world's row has the claim's epoch and a live lease. */
const LIVE_CLAIM = `exists (select 1 from worlds w where w.number = cw.world and w.epoch = cw.epoch and w.${LIVE})`;

/** Which world each of these characters is in (those in none, or only in a lost world, are absent). */
export async function worldsOf(db: Database, characterIds: readonly string[]): Promise<Map<string, number>> {
  if (characterIds.length === 0) return new Map();
  const rows = await db.em.getConnection().execute<Array<{ character_id: string; world: number }>>(
    `select cw.character_id, cw.world from character_worlds cw
     where cw.character_id in (${characterIds.map(() => '?').join(', ')}) and ${LIVE_CLAIM}`,
    [...characterIds]);
  return new Map(rows.map((row) => [row.character_id, Number(row.world)]));
}

/** The world room of an account's character in a live world (of that character when the token names one), if any. */
export async function worldRoomOfAccount(db: Database, accountId: string, characterId?: string): Promise<string | undefined> {
  const rows = await db.em.getConnection().execute<Array<{ room_id: string }>>(
    `select cw.room_id from character_worlds cw join characters c on c.id = cw.character_id
     where c.account_id = ?${characterId ? ' and cw.character_id = ?' : ''} and ${LIVE_CLAIM} order by cw.entered_at desc limit 1`,
    characterId ? [accountId, characterId] : [accountId]);
  return rows[0]?.room_id;
}
