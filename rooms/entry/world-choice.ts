/**
 * Which world a join goes to (docs/worlds.md), for both entry paths: /ws `world:enter` and the SDK's matchmaking
 * requests for the `world` room type. Without a number, Colyseus' own `joinOrCreate` picks: the world room type
 * is sorted fullest first, so players fill the open worlds before the matchmaker opens another (and a full world is
 * locked by Colyseus, so it is skipped). With a number, that world or a coded refusal: WORLD_NOT_FOUND (no open
 * world has it, or it is closing) or WORLD_FULL.
 */
import { matchMaker, type AuthContext, type IRoomCache } from '@colyseus/core';
import { gameContext } from '../../src/context.ts';
import { liveWorlds, type LiveWorld } from '../../src/db/worlds.ts';
import { GameError } from '../../src/game/refusal.ts';
import { settledWithin } from '../../src/settled-within.ts';

export const WORLD_ROOM = 'world';

/** What a world room lists (matchmaking, the world list): its number and whether it is closing. */
export interface WorldListing {
  world: number;
  status: 'open' | 'closing';
  /** One of the WORLDS_MIN worlds the server keeps open (counted by the cluster's takeover, src/cluster/cluster.ts). */
  standing?: true;
}
/** Highest world number a request may name. */
export const MAX_WORLD_NUMBER = 9_999;

interface SeatReservation {
  roomId: string;
  sessionId: string;
}

/** The creation options of standing world `number` (1…WORLDS_MIN), which the server opens itself. */
export interface StandingWorldOptions {
  standing: true;
  number: number;
}

/**
 * The creation options of one of the WORLDS_MIN worlds the server opens itself, under its own number. Clients
 * cannot pass them: a join's options are rebuilt from the fields a join has (`entryOptions`) before the matchmaker
 * sees them.
 */
export function standingWorld(number: number): StandingWorldOptions {
  return { standing: true, number };
}

/** How long an entry that finds no world with a free seat waits for the standing worlds' check. */
const STANDING_CHECK_WAIT_MS = 5_000;

/** Runs the standing worlds' check now, or joins the one under way (rooms/world/standing-worlds.ts); none when stopped. */
let checkStandingWorlds: (() => Promise<unknown>) | undefined;

/** Sets the standing worlds' check that entries run; returns the one it replaces. */
export function followStandingWorlds(check: (() => Promise<unknown>) | undefined): (() => Promise<unknown>) | undefined {
  const replaced = checkStandingWorlds;
  checkStandingWorlds = check;
  return replaced;
}

/**
 * Before an entry opens a world of its own: the standing worlds' check, for a bounded time; whether one ran. An
 * entry that opened a world while the keeper reopened world 1 would take number 2 beside it — even one that looked
 * for a reopening under way first, since the keeper's check reads which numbers are missing before it opens any
 * (test/world/standing-worlds.test.ts, found by the database-cut suite). Run first, the check opens the missing
 * standing worlds, or finds them live, and the entry goes where it would have.
 */
async function standingWorldsChecked(): Promise<boolean> {
  const check = checkStandingWorlds?.();
  if (!check) return false;
  await settledWithin(check, STANDING_CHECK_WAIT_MS);
  return true;
}

/** The options a world entry passes on: the character, the world asked for, and an SDK client's `updates`. */
export function entryOptions(options: Record<string, unknown>): Record<string, unknown> {
  return { characterId: options.characterId, createCharacter: options.createCharacter, world: options.world, updates: options.updates };
}

export type WorldRoomListing = IRoomCache & { metadata?: Partial<WorldListing> };

/** The `world` option of an entry: absent (the server picks) or a world number. */
export function requestedWorld(options: { world?: unknown }): number | undefined {
  const world = options.world;
  if (world === undefined || world === null) return undefined;
  if (typeof world !== 'number' || !Number.isInteger(world) || world < 1 || world > MAX_WORLD_NUMBER) {
    throw new GameError('INVALID_REQUEST', `"world" must be a world number from 1 to ${MAX_WORLD_NUMBER}`);
  }
  return world;
}

/**
 * Every world room listed on any process (through the RedisDriver with REDIS_URL) that holds its number's live lease
 * now, lowest number first. A listing left behind by a world that lost its lease (its process stalled, and another
 * took the number over) is not a world: each number is listed once, by the world PostgreSQL says owns it.
 */
export async function listWorlds(): Promise<WorldRoomListing[]> {
  return ownedListings(await readWorlds());
}

/** What listWorlds reads: the room listings and the live leases. */
async function readWorlds(): Promise<{ listings: WorldRoomListing[]; live: LiveWorld[] }> {
  const [listings, live] = await Promise.all([
    matchMaker.query({ name: WORLD_ROOM }) as Promise<WorldRoomListing[]>,
    liveWorlds(gameContext().db),
  ]);
  return { listings, live };
}

function ownedListings({ listings, live }: { listings: WorldRoomListing[]; live: LiveWorld[] }): WorldRoomListing[] {
  const owner = new Map(live.map((world) => [world.roomId, world.number]));
  return listings
    .filter((listing) => typeof listing.metadata?.world === 'number' && owner.get(listing.roomId) === listing.metadata.world)
    .sort((a, b) => a.metadata!.world! - b.metadata!.world!);
}

/** The named world's listing, if it holds its number's live lease. When it does not, says what each source had. */
export async function findWorld(world: number): Promise<WorldRoomListing | undefined> {
  const read = await readWorlds();
  const found = ownedListings(read).find((listing) => listing.metadata!.world === world);
  if (!found) {
    gameContext().logger.info({
      world,
      listed: read.listings.filter((l) => l.metadata?.world === world).map((l) => ({ roomId: l.roomId, processId: l.processId, status: l.metadata?.status })),
      lease: read.live.find((w) => w.number === world),
    }, 'no open world with that number');
  }
  return found;
}

export function isFull(listing: IRoomCache): boolean {
  return listing.clients >= listing.maxClients;
}

/** Whether a listed world takes a seat now: open (not closing), not locked, not full. */
function hasFreeSeat(listing: WorldRoomListing): boolean {
  return listing.metadata?.status !== 'closing' && !listing.locked && !isFull(listing);
}

/** Whether a listed world would take a seat now: the case where `joinOrCreate` opens no world. */
async function someWorldHasASeat(): Promise<boolean> {
  return ((await matchMaker.query({ name: WORLD_ROOM })) as WorldRoomListing[]).some(hasFreeSeat);
}

/** The listing of an open world with a free seat, or WORLD_NOT_FOUND (none, or closing) / WORLD_FULL. */
export async function openWorldWithRoom(world: number): Promise<WorldRoomListing> {
  const listing = await findWorld(world);
  if (!listing || listing.metadata!.status === 'closing') throw new GameError('WORLD_NOT_FOUND', `There is no open world ${world}`);
  if (listing.locked || isFull(listing)) throw new GameError('WORLD_FULL', `World ${world} is full`);
  return listing;
}

/**
 * The world a server-picked entry goes to, chosen before its seat (so an entry knows the world's process first):
 * the fullest open world with room, lowest number among equals, or else a new world, which the matchmaker places
 * (with REDIS_URL, on the least-loaded process). `passOver`: worlds this entry found full when it took a seat.
 */
export async function pickWorld(passOver: ReadonlySet<number> = new Set(), waited = false): Promise<WorldRoomListing> {
  const listedAt = opened.count;
  const open = (await listWorlds()).filter((listing) => hasFreeSeat(listing) && !passOver.has(listing.metadata!.world!));
  open.sort((a, b) => b.clients - a.clients || a.metadata!.world! - b.metadata!.world!);
  if (open[0]) return open[0];
  if (!waited && await standingWorldsChecked()) return pickWorld(passOver, true);
  // Entries that find every world full at once share one new world instead of each opening their own (a burst of
  // 50 entries opened 50 worlds); one that finds the new world full by the time it takes a seat picks again. An
  // entry whose listing was read before a world opened for the burst did not see it: it takes that world too.
  if (opening) return opening;
  const last = opened.last;
  if (opened.count !== listedAt && last && !passOver.has(last.metadata!.world!)) return last;
  opening = openWorldForEntries().then((listing) => {
    opened.count++;
    opened.last = listing;
    return listing;
  }).finally(() => (opening = undefined));
  return opening;
}

/** The new world being opened for entries that found every world full (pickWorld), if any. */
let opening: Promise<WorldRoomListing> | undefined;
/** The worlds opened for entries so far (a count), and the last one. */
const opened: { count: number; last: WorldRoomListing | undefined } = { count: 0, last: undefined };

async function openWorldForEntries(): Promise<WorldRoomListing> {
  const created = (await matchMaker.createRoom(WORLD_ROOM, {})) as WorldRoomListing;
  if (typeof created.metadata?.world === 'number') return created;
  const listed = (await listWorlds()).find((listing) => listing.roomId === created.roomId);
  if (!listed) throw new GameError('WORLD_NOT_FOUND', 'No world could be opened');
  return listed;
}

/** Reserves a seat in the requested world, or in the one the matchmaker picks. */
export async function reserveWorldSeat(requested: Record<string, unknown>, auth: AuthContext | undefined): Promise<SeatReservation> {
  const options = entryOptions(requested);
  const world = requestedWorld(options);
  if (world === undefined) {
    if (!(await someWorldHasASeat())) await standingWorldsChecked();
    return (await matchMaker.joinOrCreate(WORLD_ROOM, options, auth)) as SeatReservation;
  }
  const listing = await openWorldWithRoom(world);
  try {
    return (await matchMaker.joinById(listing.roomId, options, auth)) as SeatReservation;
  } catch (error) {
    // Filled (or started closing) between the listing and the seat.
    const message = error instanceof Error ? error.message : '';
    if (/is locked$|already full/.test(message)) throw new GameError('WORLD_FULL', `World ${world} is full`);
    if (/not found|disposed/.test(message)) throw new GameError('WORLD_NOT_FOUND', `There is no open world ${world}`);
    throw error;
  }
}

/** The world an entry goes to and the process that runs it. */
export interface EntryTarget {
  /** The entry, with the world's number filled in when the server picked it. */
  data: Record<string, unknown>;
  processId: string;
}

/**
 * Scale-out: the world an entry goes to and its process, before any seat is taken — the reconnection token's room,
 * the named world, or a picked one (`passOver`: worlds this entry found full). Undefined when no listing has it.
 */
export async function worldOfEntry(data: Record<string, unknown>, passOver: ReadonlySet<number>): Promise<EntryTarget | undefined> {
  if (typeof data.reconnectionToken === 'string') {
    const [room] = await matchMaker.query({ roomId: data.reconnectionToken.split(':')[0] });
    return room ? { data, processId: room.processId } : undefined;
  }
  const world = requestedWorld(data);
  const listing = world === undefined ? await pickWorld(passOver) : await findWorld(world);
  if (!listing) return undefined;
  return { data: { ...data, world: listing.metadata!.world }, processId: listing.processId };
}
