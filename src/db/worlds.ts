/**
 * The `worlds` and `character_worlds` rows (docs/worlds.md). Every process that shares the database sees them, so
 * they hold the two rules that must hold across processes: world numbers are unique while a world is open (the
 * primary key of `worlds`), and a character is in at most one world (the primary key of `character_worlds`).
 * Each world room refreshes its row's heartbeat; a world whose heartbeat is older than WORLD_DEAD_SECONDS died
 * with its process: its number is free again and the claims on it are stale (taken over by the next entry).
 */
import type { Database } from './database.ts';

/** How many times opening a world retries after another process took the number it picked. */
const NUMBER_ATTEMPTS = 20;
/** A world room refreshes its heartbeat this often… */
export const WORLD_HEARTBEAT_SECONDS = 10;
/** …and one silent for this long is dead. */
export const WORLD_DEAD_SECONDS = 30;
const ALIVE = `heartbeat_at > now() - make_interval(secs => ${WORLD_DEAD_SECONDS})`;

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || /duplicate key|unique constraint/i.test(String((error as Error | null)?.message));
}

/** Records a world room as open under the smallest free number and returns that number. */
export async function openWorld(db: Database, roomId: string, processId: string): Promise<number> {
  const connection = db.em.getConnection();
  await forgetSilentWorlds(db);
  for (let attempt = 0; attempt < NUMBER_ATTEMPTS; attempt++) {
    try {
      const [row] = await connection.execute<Array<{ number: number }>>(
        `insert into worlds (number, room_id, process_id)
         select min(free.number), ?, ? from (
           select 1 as number where not exists (select 1 from worlds where number = 1)
           union all
           select w.number + 1 from worlds w where not exists (select 1 from worlds n where n.number = w.number + 1)
         ) free
         returning number`, [roomId, processId]);
      return Number(row.number);
    } catch (error) {
      // Two processes picked the same free number at once: the loser picks again.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('could not find a free world number');
}

/** The world room closed: its number is free again, and claims on it are released. */
export async function closeWorld(db: Database, roomId: string): Promise<void> {
  const connection = db.em.getConnection();
  await connection.execute('delete from character_worlds where room_id = ?', [roomId]);
  await connection.execute('delete from worlds where room_id = ?', [roomId]);
}

/** The open worlds as recorded (number and room), lowest number first. */
export async function openWorlds(db: Database): Promise<Array<{ number: number; roomId: string; processId: string }>> {
  const rows = await db.em.getConnection().execute<Array<{ number: number; room_id: string; process_id: string }>>(
    'select number, room_id, process_id from worlds order by number');
  return rows.map((row) => ({ number: Number(row.number), roomId: row.room_id, processId: row.process_id }));
}

/** The world is alive: refreshes its heartbeat. False when its row is gone (taken for dead). */
export async function heartbeat(db: Database, roomId: string): Promise<boolean> {
  const rows = await db.em.getConnection().execute<Array<{ number: number }>>(
    'update worlds set heartbeat_at = now() where room_id = ? returning number', [roomId]);
  return rows.length === 1;
}

/** Forgets the worlds whose heartbeat stopped, with the claims on them. */
export async function forgetSilentWorlds(db: Database): Promise<void> {
  const connection = db.em.getConnection();
  await connection.execute(`delete from character_worlds where room_id in (select room_id from worlds where not (${ALIVE}))`);
  await connection.execute(`delete from worlds where not (${ALIVE})`);
}

/** Forgets the worlds whose rooms are not listed (`alive`: the listed room ids), with their claims. */
export async function forgetUnlistedWorlds(db: Database, alive: ReadonlySet<string>): Promise<void> {
  const dead = (await openWorlds(db)).map((world) => world.roomId).filter((roomId) => !alive.has(roomId));
  if (dead.length === 0) return;
  const list = dead.map(() => '?').join(', ');
  const connection = db.em.getConnection();
  await connection.execute(`delete from character_worlds where room_id in (${list})`, dead);
  await connection.execute(`delete from worlds where room_id in (${list})`, dead);
}

/** The only process of its database starts (the embedded one): no world of an earlier run is open any more. */
export async function forgetAllWorlds(db: Database): Promise<void> {
  const connection = db.em.getConnection();
  await connection.execute('delete from character_worlds');
  await connection.execute('delete from worlds');
}

/**
 * Puts the character in a world: true when it was in none (or only in a world that is dead or closed), false when
 * it is in a live world — this one included — on any process.
 */
export async function claimWorld(db: Database, characterId: string, world: number, roomId: string): Promise<boolean> {
  const rows = await db.em.getConnection().execute<Array<{ world: number }>>(
    `insert into character_worlds (character_id, world, room_id) values (?, ?, ?)
     on conflict (character_id) do update set world = excluded.world, room_id = excluded.room_id, entered_at = now()
       where not exists (select 1 from worlds w where w.room_id = character_worlds.room_id and w.${ALIVE})
     returning world`, [characterId, world, roomId]);
  return rows.length === 1;
}

/** The character left the world of `roomId` (a claim on another world is left alone). */
export async function releaseWorld(db: Database, characterId: string, roomId: string): Promise<void> {
  await db.em.getConnection().execute('delete from character_worlds where character_id = ? and room_id = ?', [characterId, roomId]);
}

/** Which world each of these characters is in (those in none are absent). */
export async function worldsOf(db: Database, characterIds: readonly string[]): Promise<Map<string, number>> {
  if (characterIds.length === 0) return new Map();
  const rows = await db.em.getConnection().execute<Array<{ character_id: string; world: number }>>(
    `select character_id, world from character_worlds where character_id in (${characterIds.map(() => '?').join(', ')})`,
    [...characterIds]);
  return new Map(rows.map((row) => [row.character_id, Number(row.world)]));
}

/** The world room of an account's character in a world (of that character when the token names one), if any. */
export async function worldRoomOfAccount(db: Database, accountId: string, characterId?: string): Promise<string | undefined> {
  const rows = await db.em.getConnection().execute<Array<{ room_id: string }>>(
    `select cw.room_id from character_worlds cw join characters c on c.id = cw.character_id
     where c.account_id = ?${characterId ? ' and cw.character_id = ?' : ''} order by cw.entered_at desc limit 1`,
    characterId ? [accountId, characterId] : [accountId]);
  return rows[0]?.room_id;
}
