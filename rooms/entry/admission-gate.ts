/**
 * Admission by health and the login queue (docs/worlds.md "When the server is full"), for both entry paths: a /ws
 * `world:enter` (membership.ts) and an SDK join (sdk-entry.ts). A new login into a world is let through when the
 * world has a free seat, its process has headroom (src/game/admission.ts) and nobody queues for it; otherwise it is
 * refused at once with a code and `retryAfterSeconds` — or, when the client asked to queue, it takes a place in the
 * world's line and is let through in turn. Reconnections and hops never come here: they are not new logins.
 *
 * Each process measures itself and publishes its state every PUBLISH_MS (in Redis with REDIS_URL, through the login
 * queue's store), so an entry into a world of another process is judged by that process' state, and new worlds are
 * opened on a process with headroom (src/cluster/cluster.ts asks `placementView`).
 */
import { randomUUID } from 'node:crypto';
import { matchMaker } from '@colyseus/core';
import { gameContext, type GameContext } from '../../src/context.ts';
import { estimatedWaitSeconds, headroomOf, median, type Headroom } from '../../src/game/admission.ts';
import { GameError } from '../../src/game/refusal.ts';
import { isFresh, TICKET_TTL_MS, type ProcessAdmission, type QueuePlace } from '../../src/cluster/login-queue.ts';
import { isFull, listWorlds, type WorldRoomListing } from './world-choice.ts';

/** How often a process measures and publishes its admission state. */
const PUBLISH_MS = 500;
/** How long the world listings and queue lengths read for entries are reused (one read serves a storm). */
const READ_REUSE_MS = 250;
/** How often a queued /ws entry asks for its place, and how often an unchanged place is pushed again. */
const QUEUE_POLL_MS = 500;
const QUEUE_PUSH_EVERY_MS = 5_000;
/** How many at the head of a world's line may try for a seat at once (fewer when fewer seats are free). */
const ADMIT_WINDOW = 8;
/** What a refused entry is told to wait before trying again. */
const BUSY_RETRY_SECONDS = 5;
const FULL_RETRY_SECONDS = 30;
/** An SDK client in the line asks again this often (each ask keeps its ticket alive). */
const SDK_QUEUE_RETRY_SECONDS = 2;
/** Longest ticket a client may hand back. */
const MAX_TICKET_LENGTH = 64;

/** Why a new login was refused (game_admission_refusals_total). */
export type RefusalReason = 'busy' | 'full' | 'queue_full';

/** A world's admission state as operators and clients see it. */
export type WorldAdmission = 'open' | 'busy' | 'full' | 'queueing';

interface GateState {
  context: GameContext;
  /** Entries this process let through that are not seated yet (part of the tick projection). */
  entering: number;
  own: Headroom;
  /** The other processes' recent admission states. */
  others: Map<string, ProcessAdmission>;
  /** Processes whose last published state is old: dead or stalled (new worlds do not open there). */
  stale: Set<string>;
  /** Queue lengths of the worlds listed, as last read. */
  queues: Map<number, number>;
  timer: NodeJS.Timeout | undefined;
  read: { at: number; worlds: Promise<WorldRoomListing[]> } | undefined;
  lengthsRead: { at: number; lengths: Promise<Map<number, number>> } | undefined;
}

let gate: GateState | undefined;

function state(): GateState {
  const context = gameContext();
  if (!gate || gate.context !== context) {
    gate = { context, entering: 0, own: { busy: false }, others: new Map(), stale: new Set(), queues: new Map(), timer: undefined, read: undefined, lengthsRead: undefined };
  }
  return gate;
}

/** This process' headroom, measured now. */
export function measureHeadroom(context: GameContext = gameContext(), entering = state().entering): Headroom {
  const { config, metrics, loopLag } = context;
  return headroomOf({
    worlds: metrics.worldLoads().map((world) => ({ players: world.players, tickMedianMs: median(world.tickMs), latenessMedianMs: median(world.latenessMs) })),
    loopLagP99Ms: loopLag.p99Ms(),
    entering,
  }, { tickBusyMs: config.admissionTickMs, lagBusyMs: config.admissionLagMs, entriesInFlight: config.admissionEntriesInFlight });
}

/** Starts measuring and publishing this process' admission state; the result stops it. */
export function startAdmission(context: GameContext): () => Promise<void> {
  const current = state();
  const publish = async () => {
    current.own = measureHeadroom(context, current.entering);
    const { loginQueue } = context;
    try {
      await loginQueue.publish(matchMaker.processId, { ...current.own, at: Date.now() });
      const states = await loginQueue.processes();
      // This process judges itself by what it measures now, not by what it published.
      states.delete(matchMaker.processId);
      const now = Date.now();
      current.others = new Map([...states].filter(([, admission]) => isFresh(admission, now)));
      current.stale = new Set([...states].filter(([, admission]) => !isFresh(admission, now)).map(([processId]) => processId));
      const worlds = context.metrics.worldLoads().map((world) => world.world);
      current.queues = await loginQueue.lengths(worlds);
    } catch (error) {
      context.logger.debug({ err: error }, 'could not publish the admission state');
    }
  };
  void publish();
  current.timer = setInterval(() => void publish(), PUBLISH_MS);
  current.timer.unref();
  return async () => {
    clearInterval(current.timer);
    await context.loginQueue.forget(matchMaker.processId).catch(() => {});
  };
}

/**
 * Where a new world may not open: processes with no room for another player now (`busy`), and those that stopped
 * publishing their state (`stale`: dead or stalled; a process just started has not published yet, and is not).
 */
export function placementView(): { busy: Set<string>; stale: Set<string> } {
  const current = state();
  const busy = new Set([...current.others].filter(([, admission]) => admission.busy).map(([processId]) => processId));
  if (current.own.busy) busy.add(matchMaker.processId);
  return { busy, stale: new Set(current.stale) };
}

/** How clients and operators see a world: full before busy before queueing. */
function admissionOf(full: boolean, busy: boolean, queue: number): WorldAdmission {
  return full ? 'full' : busy ? 'busy' : queue > 0 ? 'queueing' : 'open';
}

/** The admission state of this process' worlds, for /status and the metrics: state and queue length by world number. */
export function localAdmission(): Map<number, { admission: WorldAdmission; queue: number }> {
  const current = state();
  const { metrics, config } = current.context;
  const own = measureHeadroom(current.context, current.entering);
  return new Map(metrics.worldLoads().map((world) => {
    const queue = current.queues.get(world.world) ?? 0;
    return [world.world, { admission: admissionOf(world.players >= config.worldCapacity, own.busy, queue), queue }];
  }));
}

/** Whether the process that runs a listed world has room for another player (its own state: measured now). */
function processBusy(processId: string): Headroom {
  const current = state();
  if (processId === matchMaker.processId) return measureHeadroom(current.context, current.entering);
  const other = current.others.get(processId);
  return other?.busy ? { busy: true, reason: other.reason ?? 'tick' } : { busy: false };
}

function listedWorlds(): Promise<WorldRoomListing[]> {
  const current = state();
  const now = Date.now();
  if (!current.read || now - current.read.at > READ_REUSE_MS) {
    const worlds = listWorlds();
    worlds.catch(() => (current.read = undefined));
    current.read = { at: now, worlds };
  }
  return current.read.worlds;
}

function queueLengths(worlds: readonly number[]): Promise<Map<number, number>> {
  const current = state();
  const now = Date.now();
  if (!current.lengthsRead || now - current.lengthsRead.at > READ_REUSE_MS) {
    const lengths = current.context.loginQueue.lengths(worlds);
    lengths.catch(() => (current.lengthsRead = undefined));
    current.lengthsRead = { at: now, lengths };
  }
  return current.lengthsRead.lengths;
}

/** A world as a new login sees it: seats, its process' headroom, its line. */
interface WorldLook {
  listing: WorldRoomListing;
  world: number;
  full: boolean;
  busy: Headroom;
  queue: number;
}

async function lookAt(listings: WorldRoomListing[]): Promise<WorldLook[]> {
  const open = listings.filter((listing) => listing.metadata!.status !== 'closing');
  const lengths = await queueLengths(listings.map((listing) => listing.metadata!.world!));
  return open.map((listing) => ({
    listing, world: listing.metadata!.world!, full: listing.locked || isFull(listing), busy: processBusy(listing.processId),
    queue: lengths.get(listing.metadata!.world!) ?? 0,
  }));
}

/** Each listed world with its admission state as clients see it (the world list) and its queue length. */
export async function admissionOfWorlds(listings: WorldRoomListing[]): Promise<Array<{ listing: WorldRoomListing; admission: WorldAdmission; queue: number }>> {
  const lengths = await gameContext().loginQueue.lengths(listings.map((listing) => listing.metadata!.world!)).catch(() => new Map<number, number>());
  return listings.map((listing) => {
    const queue = lengths.get(listing.metadata!.world!) ?? 0;
    return { listing, admission: admissionOf(listing.locked || isFull(listing), processBusy(listing.processId).busy, queue), queue };
  });
}

/** What a new login asks of the gate. */
export interface GateRequest {
  /** The world named, if any. */
  world: number | undefined;
  /** The client asked to wait in line rather than be refused. */
  queue: boolean;
  /** A ticket the client holds from an earlier ask (SDK), or that its entry process took for it (/ws hand-over). */
  ticket?: string;
  /** Worlds a picked login was refused by already (filled up, or could not be reached): not picked again. */
  passOver?: ReadonlySet<number>;
}

/** Let through: the world to enter (undefined: the matchmaker picks or opens one), and what to do once seated or refused. */
export interface GatePass {
  world: number | undefined;
  ticket: string | undefined;
  /** The entry ended: seated (it leaves the line as served) or not (it keeps its place, if it was queueing). */
  done(seated: boolean): void;
}

/** The outcome of one ask: through, or a place in a line (the caller waits, or tells an SDK client). */
type Ask = { pass: GatePass } | { waiting: QueuePlace & { world: number; ticket: string } };

function pass(world: number | undefined, ticket: string | undefined, local: boolean): GatePass {
  const current = state();
  if (local) current.entering++;
  let ended = false;
  return {
    world,
    ticket,
    done: (seated) => {
      if (ended) return;
      ended = true;
      if (local) current.entering--;
      if (seated && ticket !== undefined && world !== undefined) void current.context.loginQueue.leave(world, ticket, true).catch(() => {});
    },
  };
}

function refuse(reason: RefusalReason, error: GameError): never {
  gameContext().metrics.admissionRefused(reason);
  throw error;
}

function busyRefusal(look: WorldLook): GameError {
  const why = look.busy.busy ? `its server is at capacity (${look.busy.reason})` : `${look.queue} players are queueing for it`;
  return new GameError('WORLD_BUSY', `World ${look.world} is not taking new players now: ${why}`, {
    world: look.world, retryAfterSeconds: BUSY_RETRY_SECONDS, queueLength: look.queue,
  });
}

/**
 * For a server-picked login: 'room' when some world has a seat, headroom and nobody queueing, or some process has
 * headroom for a new world (the entry then places itself); or, when nothing has room, the line to stand in: the
 * world with the shortest one.
 */
function pickFor(looks: WorldLook[], passOver: ReadonlySet<number> = new Set()): 'room' | { line: WorldLook } {
  const candidates = looks.filter((look) => !passOver.has(look.world));
  if (candidates.some((look) => !look.full && !look.busy.busy && look.queue === 0)) return 'room';
  const anyRoom = !measureHeadroom().busy || [...state().others.values()].some((admission) => !admission.busy);
  if (anyRoom && candidates.every((look) => look.full || look.busy.busy)) return 'room';
  const lines = [...candidates].sort((a, b) => a.queue - b.queue || a.world - b.world);
  return lines[0] ? { line: lines[0] } : 'room';
}

/** One ask at the gate (see the module comment). */
async function ask(request: GateRequest, ticket: string | undefined): Promise<Ask> {
  const { config, loginQueue } = gameContext();
  const looks = await lookAt(await listedWorlds());
  // Measured now, between the last await and the pass that counts this entry: asks that looked in the same turn would
  // otherwise all see the entries in flight before any of them was counted, and all pass.
  for (const candidate of looks) candidate.busy = processBusy(candidate.listing.processId);
  let look: WorldLook | undefined;
  if (request.world === undefined) {
    const picked = pickFor(looks, request.passOver);
    // Some world (or process, for a new one) has room: the entry's own choice places it (world-choice.ts: the fullest
    // world with a seat, passing over those that refuse it), as before the gate.
    if (picked === 'room') return { pass: pass(undefined, undefined, true) };
    look = picked.line;
  } else {
    look = looks.find((candidate) => candidate.world === request.world);
    // Unknown (or closing) worlds are refused where the seat is taken, as before: WORLD_NOT_FOUND.
    if (!look) return { pass: pass(request.world, undefined, false) };
  }
  const local = look.listing.processId === matchMaker.processId;
  const admitting = !look.full && !look.busy.busy;
  if (ticket === undefined) {
    if (admitting && look.queue === 0) return { pass: pass(look.world, undefined, local) };
    if (!request.queue) {
      // The line as it is now (the reading the decision reused may be a moment old).
      look.queue = (await loginQueue.lengths([look.world])).get(look.world) ?? look.queue;
      // A full world nobody queues for: the seat refuses it as before (WORLD_FULL — or WORLD_UNAVAILABLE first, when
      // its process cannot be reached).
      if (look.full && !look.busy.busy && look.queue === 0) return { pass: pass(look.world, undefined, false) };
      if (look.full && !look.busy.busy) {
        refuse('full', new GameError('WORLD_FULL', `World ${look.world} is full`, { world: look.world, retryAfterSeconds: FULL_RETRY_SECONDS, queueLength: look.queue }));
      }
      refuse('busy', busyRefusal(look));
    }
    ticket = randomUUID();
  }
  const place = await loginQueue.place(look.world, ticket, config.loginQueueMax);
  if (!place) {
    refuse('queue_full', new GameError('QUEUE_FULL', `The queue for world ${look.world} is full`, {
      world: look.world, retryAfterSeconds: FULL_RETRY_SECONDS, queueLength: config.loginQueueMax,
    }));
  }
  const freeSeats = Math.max(0, look.listing.maxClients - look.listing.clients);
  // Measured again after the await (see above).
  look.busy = processBusy(look.listing.processId);
  if (!look.full && !look.busy.busy && place.position <= Math.min(ADMIT_WINDOW, Math.max(1, freeSeats))) return { pass: pass(look.world, ticket, local) };
  if (!request.queue) refuse(look.full ? 'full' : 'busy', busyRefusal(look));
  return { waiting: { ...place, world: look.world, ticket } };
}

/** Whether a client's `queueTicket` can be one: a non-empty string of at most MAX_TICKET_LENGTH characters. */
export function isQueueTicket(ticket: unknown): ticket is string {
  return typeof ticket === 'string' && ticket.length > 0 && ticket.length <= MAX_TICKET_LENGTH;
}

/** A client's ticket: its own string, bounded. */
function clientTicket(ticket: unknown): string | undefined {
  if (ticket === undefined || ticket === null) return undefined;
  if (!isQueueTicket(ticket)) {
    throw new GameError('INVALID_REQUEST', `"queueTicket" must be the ticket a queue answer gave (at most ${MAX_TICKET_LENGTH} characters)`);
  }
  return ticket;
}

/** What a waiting client is told of its place. */
export function queuePositionEvent(waiting: QueuePlace & { world: number }): Record<string, unknown> {
  return {
    world: waiting.world, position: waiting.position, length: waiting.length,
    estimatedWaitSeconds: estimatedWaitSeconds(waiting.position, waiting.servedPerSecond),
  };
}

/**
 * An SDK login: through, or refused. A client that queues names its own ticket (`queue: true, queueTicket`: any
 * string of its own, e.g. a UUID, since a matchmaking refusal carries only a message) and is refused `QUEUED` with its
 * place in the message; asking again with the same ticket within TICKET_TTL_MS keeps the place.
 */
export async function sdkGate(request: { world: number | undefined; queue: unknown; queueTicket: unknown }): Promise<GatePass> {
  if (request.queue !== undefined && typeof request.queue !== 'boolean') throw new GameError('INVALID_REQUEST', '"queue" must be true or false');
  const ticket = clientTicket(request.queueTicket);
  if (request.queue === true && ticket === undefined) {
    throw new GameError('INVALID_REQUEST', 'To queue, join with { queue: true, queueTicket }: a ticket of your own (e.g. a UUID), the same on every ask');
  }
  const outcome = await ask({ world: request.world, queue: request.queue === true }, request.queue === true ? ticket : undefined);
  if ('pass' in outcome) return outcome.pass;
  const { position, length, world } = outcome.waiting;
  const wait = queuePositionEvent(outcome.waiting).estimatedWaitSeconds;
  throw new GameError('QUEUED', `Position ${position} of ${length} in the queue for world ${world}`
    + `${wait === null ? '' : ` (about ${wait} s)`}; ask again with the same queueTicket within ${SDK_QUEUE_RETRY_SECONDS} s to ${TICKET_TTL_MS / 1000} s`, {
    ...queuePositionEvent(outcome.waiting), retryAfterSeconds: SDK_QUEUE_RETRY_SECONDS,
  });
}

/**
 * A /ws login: through (maybe after waiting in line, `place` told of each move), or refused. A waiter that gives up
 * (`wanted()` turns false: its socket closed) leaves the line and gets undefined. Waiters do not ask for their place
 * one by one: the process' line keeper asks for all of its waiters of a world at once, every QUEUE_POLL_MS, and wakes
 * those whose turn it is (a storm of thousands waiting costs one read per world and half second).
 */
export async function wsGate(request: GateRequest, place: (event: Record<string, unknown>) => void, wanted: () => boolean): Promise<GatePass | undefined> {
  let ticket = request.ticket;
  let line: number | undefined;
  const told: Told = { position: 0, at: 0 };
  for (;;) {
    if (!wanted()) {
      if (ticket !== undefined && line !== undefined) await gameContext().loginQueue.leave(line, ticket, false).catch(() => {});
      return undefined;
    }
    const outcome = await ask(request, ticket);
    if ('pass' in outcome) return outcome.pass;
    const waiting = outcome.waiting;
    ticket = waiting.ticket;
    line = waiting.world;
    // A picked login stays in the line it joined.
    request = { ...request, world: waiting.world };
    tell(told, waiting, place);
    // Woken for any reason, it asks again (a waiter that is gone leaves the line at the top of the loop).
    await new Promise<Wake>((wake) => keepWaiter({ world: waiting.world, ticket: waiting.ticket, told, place, wanted, wake }));
  }
}

/** The last place a waiter was told, and when. */
interface Told { position: number; at: number }

function tell(told: Told, place: QueuePlace & { world: number }, send: (event: Record<string, unknown>) => void): void {
  const now = Date.now();
  if (told.position === place.position && now - told.at < QUEUE_PUSH_EVERY_MS) return;
  told.position = place.position;
  told.at = now;
  send(queuePositionEvent(place));
}

/** Why a waiter stops waiting: its turn came (it asks again), its socket closed, or its ticket left the line. */
type Wake = 'turn' | 'gone' | 'dropped';

interface Waiter {
  world: number;
  ticket: string;
  told: Told;
  place: (event: Record<string, unknown>) => void;
  wanted: () => boolean;
  wake: (why: Wake) => void;
}

/** This process' waiters, by world, and the keeper's timer. */
const waiters = new Map<number, Set<Waiter>>();
let keeper: NodeJS.Timeout | undefined;
/** A round still running (a slow store): the next one is skipped, not run beside it. */
let keeping = false;

function keepWaiter(waiter: Waiter): void {
  let line = waiters.get(waiter.world);
  if (!line) waiters.set(waiter.world, (line = new Set()));
  line.add(waiter);
  keeper ??= setInterval(() => {
    if (keeping) return;
    keeping = true;
    void keepLines().finally(() => (keeping = false));
  }, QUEUE_POLL_MS);
}

/** One round of the line keeper: every waiter's place read (per world, at once), told, and woken on its turn. */
async function keepLines(): Promise<void> {
  if (waiters.size === 0) {
    clearInterval(keeper);
    keeper = undefined;
    return;
  }
  let looks: WorldLook[] = [];
  try {
    looks = await lookAt(await listedWorlds());
  } catch {
    // The listings cannot be read now: nobody's turn comes this round.
  }
  for (const [world, line] of waiters) {
    for (const waiter of line) {
      if (waiter.wanted()) continue;
      line.delete(waiter);
      waiter.wake('gone');
    }
    if (line.size === 0) {
      waiters.delete(world);
      continue;
    }
    let places: Map<string, QueuePlace>;
    try {
      places = await gameContext().loginQueue.places(world, [...line].map((waiter) => waiter.ticket));
    } catch {
      continue;
    }
    const look = looks.find((candidate) => candidate.world === world);
    const admitting = look !== undefined && !look.full && !look.busy.busy;
    const window = admitting ? Math.min(ADMIT_WINDOW, Math.max(1, look.listing.maxClients - look.listing.clients)) : 0;
    for (const waiter of line) {
      const place = places.get(waiter.ticket);
      if (place && place.position > window) {
        tell(waiter.told, { ...place, world }, waiter.place);
        continue;
      }
      line.delete(waiter);
      waiter.wake(place ? 'turn' : 'dropped');
    }
  }
}

/** Leaves a line for good (a waiter whose entry failed for a reason waiting does not cure). */
export async function leaveLine(world: number | undefined, ticket: string | undefined): Promise<void> {
  if (world === undefined || ticket === undefined) return;
  await gameContext().loginQueue.leave(world, ticket, false).catch(() => {});
}
