/**
 * One /ws connection's way into and out of the worlds (docs/architecture.md "World membership"): `world:enter`,
 * `world:leave`, an approved `world:hop`, reconnection, the hand-over to another process and the trade room a room
 * links it to. It moves only along the table of membership-states.ts and talks to the client through the transport
 * port (membership-port.ts); seats are taken in seats.ts, worlds chosen in world-choice.ts.
 */
import { matchMaker, Protocol } from '@colyseus/core';
import { GameError } from '../../src/game/refusal.ts';
import type { Identity } from '../../src/auth/tokens.ts';
import { clientLink, type WorldHop } from '../client-link.ts';
import { isUpdateEncoding, UPDATE_ENCODINGS, type UpdateEncoding } from '../world/update-frames.ts';
import { PREADMITTED_ENTRY } from './entry-limit.ts';
import { HandoverFailure, type ConnectionClient, type MembershipTransport, type Relay } from './membership-port.ts';
import { MembershipMachine, outcomeOf, type MembershipInput, type MembershipState } from './membership-states.ts';
import { resumeWorldSeat, takeLinkedSeat, takeWorldSeat, type Seat } from './seats.ts';
import { requestedWorld, worldOfEntry, type EntryTarget } from './world-choice.ts';
import { isQueueTicket, leaveLine, wsGate } from './admission-gate.ts';

/** How many times an entry the server placed picks another world after the one it picked was refused. */
const MAX_PICKS = 5;
/** Refusals after which an entry the server placed picks another world: filled up, or cannot be reached now. */
const PICK_AGAIN = new Set(['WORLD_FULL', 'WORLD_UNAVAILABLE', 'WORLD_BUSY']);
/** A login let through whose seat was refused asks the gate again after this long. */
const GATE_RETRY_MS = 250;

/** An entry's outcome: a seat in a world of this process, a hand-over to the world's process, or a move asked of the entry process. */
type Entry = { seat: Seat } | { relay: Relay } | { moved: true };

/** The marks of an entry a hop carries out: the hop's approval counted it (entry-limit.ts). */
const HOP_ENTRY = { [PREADMITTED_ENTRY]: true } as const;

export class WorldMembership {
  private readonly machine = new MembershipMachine();
  private readonly transport: MembershipTransport;
  private readonly identity: Identity;
  private world: Seat | undefined;
  /** The room a room linked this connection to (a trade room), besides the world. */
  private linked: Seat | undefined;
  /** While joining a linked room: events wait, so those sent after the room's first event reach it. */
  private linking: Promise<void> | undefined;
  private relay: Relay | undefined;
  /** A hop the world approved while handling the current event (carried out before the next one). */
  private approvedHop: { client: ConnectionClient; hop: WorldHop } | undefined;
  /** A consented leave in progress: the room lets the client go (roomEnded) once it has saved. */
  private leaving: { client: ConnectionClient; done: () => void; quiet: boolean } | undefined;
  /**
   * The next entry was already counted: this socket was handed over for an approved hop (its hand-over ticket says
   * so), or the upstream moved it for one (relay:move).
   */
  private preadmitted: boolean;

  constructor(transport: MembershipTransport, identity: Identity, options: { preadmitted?: boolean } = {}) {
    this.transport = transport;
    this.identity = identity;
    this.preadmitted = options.preadmitted === true;
  }

  get state(): MembershipState {
    return this.machine.state;
  }

  /** Handed over: the client's frames go to the world's process as they are. */
  get relayed(): boolean {
    return this.relay !== undefined;
  }

  forward(text: string): void {
    this.relay?.forward(text);
  }

  /** A client frame, in the connection's order: `world:enter`, `world:leave` or a game event. */
  handle(type: string, data: Record<string, unknown>): void | Promise<void> {
    const input: MembershipInput = type === 'world:enter' ? 'world:enter' : type === 'world:leave' ? 'world:leave' : 'game event';
    const outcome = outcomeOf(this.state, input);
    if (outcome.kind === 'refuse') return this.transport.sendError(outcome.code, outcome.message, type);
    if (outcome.kind === 'forward') return this.transport.sendError('NOT_IN_WORLD', 'The connection is moving between processes', type);
    if (outcome.kind === 'ignore') return;
    if (input === 'world:enter') return this.enter(data);
    if (input === 'world:leave') return this.leave();
    return this.dispatch(type, data);
  }

  /** `world:enter` (or `authenticate` carrying an entry): into the named or a picked world, or a held seat. */
  async enter(data: Record<string, unknown>): Promise<void> {
    if (data.updates !== undefined && !isUpdateEncoding(data.updates)) {
      return this.transport.sendError('INVALID_PAYLOAD', `"updates" must be one of ${UPDATE_ENCODINGS.join(', ')}`, 'world:enter');
    }
    if (data.queue !== undefined && typeof data.queue !== 'boolean') return this.transport.sendError('INVALID_PAYLOAD', '"queue" must be true or false', 'world:enter');
    if (data.queueTicket !== undefined && !isQueueTicket(data.queueTicket)) {
      return this.transport.sendError('INVALID_PAYLOAD', '"queueTicket" must be a ticket a queue answer gave', 'world:enter');
    }
    this.machine.go('entering');
    const marks = this.takePreadmission();
    const updates = (data.updates ?? 'json') as UpdateEncoding;
    let entry: Entry | undefined;
    try {
      // A hop's entries and reconnections are not new logins: only these pass the admission gate.
      entry = marks || typeof data.reconnectionToken === 'string' ? await this.entry(data, updates, undefined, marks) : await this.gatedEntry(data, updates);
    } catch (error) {
      this.machine.go(this.transport.open ? 'idle' : 'closed');
      throw error;
    }
    if (!entry) return this.machine.go('closed');
    this.settle(entry);
  }

  /**
   * A new login: through the admission gate (admission-gate.ts) — at once, after waiting in line when the client
   * asked to queue (`queue:position` pushed as its place moves), or refused — then into the world it was let into. A
   * queued login refused its seat after all (filled, or its process got busy meanwhile) goes back to its place; a
   * picked one tries another world. Undefined: the socket closed while waiting.
   */
  private async gatedEntry(data: Record<string, unknown>, updates: UpdateEncoding): Promise<Entry | undefined> {
    const picked = data.world === undefined;
    const queue = data.queue === true;
    let ticket = typeof data.queueTicket === 'string' ? data.queueTicket : undefined;
    // Worlds the gate picked that then refused the seat (filled up, or could not be reached): not picked again.
    const passOver = new Set<number>();
    for (let attempt = 0; ; attempt++) {
      const pass = await wsGate({ world: picked ? undefined : requestedWorld(data), queue, ticket, passOver },
        (place) => this.transport.sendEvent('queue:position', place), () => this.transport.open);
      if (!pass) return undefined;
      ticket = pass.ticket;
      const target = pass.world === undefined ? data : { ...data, world: pass.world, ...(ticket ? { queueTicket: ticket } : {}) };
      try {
        const entry = await this.entry(target, updates, undefined, undefined);
        pass.done(true);
        return entry;
      } catch (error) {
        pass.done(false);
        const code = this.transport.toCodedError(error).code;
        const wait = queue && (code === 'WORLD_FULL' || code === 'WORLD_BUSY');
        if (!wait && !(picked && attempt < MAX_PICKS && PICK_AGAIN.has(code))) {
          await leaveLine(pass.world, ticket);
          throw error;
        }
        if (!wait && pass.world !== undefined) passOver.add(pass.world);
        await new Promise((resolve) => setTimeout(resolve, GATE_RETRY_MS));
      }
    }
  }

  /** The ClientLink's hopWorld: the world approved a `world:hop` of this connection's character. */
  approveHop(client: ConnectionClient, hop: WorldHop): void {
    if (this.world?.client === client) this.approvedHop = { client, hop };
  }

  /**
   * The ClientLink's joinRoom: a room (the world, when a trade starts) links this connection to another room of this
   * process and awaits it before telling the player. One link at a time; a link that fails is logged and the
   * connection stays where it was.
   */
  link(roomId: string): Promise<void> {
    const linking = (this.linking ?? Promise.resolve()).then(async () => {
      let seat: Seat | undefined;
      try {
        if (!this.transport.open) return;
        await takeLinkedSeat(this.transport, roomId, (taken) => (this.linked = seat = taken));
        if (!this.transport.open) seat?.client.disconnected();
      } catch (error) {
        if (seat && this.linked === seat) this.linked = undefined;
        this.transport.log.warn({ err: error, roomId }, 'could not join the linked room');
      }
    }).finally(() => {
      if (this.linking === linking) this.linking = undefined;
    });
    this.linking = linking;
    return linking;
  }

  /** A room let one of this connection's clients go (or threw it out) with a Colyseus close code. */
  roomEnded(client: ConnectionClient, code: number | undefined): void {
    if (this.leaving?.client === client) {
      const { done, quiet } = this.leaving;
      this.leaving = undefined;
      if (this.state === 'leaving') this.machine.go('idle');
      if (!quiet) this.transport.sendEvent('world:left', {});
      done();
    } else if (this.linked?.client === client) {
      this.linked = undefined;
    } else if (this.world?.client === client) {
      // Thrown out of the world (kicked, its rights ended, shutdown): the connection has nothing left to do.
      this.world = undefined;
      this.apply('room ended');
      this.transport.thrownOut(code);
    }
  }

  /** The socket closed: the rooms run their leave or reconnection logic; a hand-over closes its upstream. */
  socketClosed(code: number, reason: string): void {
    this.apply('socket closed');
    this.relay?.clientClosed(code, reason);
    this.relay = undefined;
    this.linked?.client.disconnected();
    this.world?.client.disconnected();
    this.linked = undefined;
    this.world = undefined;
  }

  // ---- the steps ----

  /** Takes an input's `go` outcome (one target), for inputs raised by the server rather than a frame. */
  private apply(input: MembershipInput): void {
    const outcome = outcomeOf(this.state, input);
    if (outcome.kind === 'go') this.machine.go(outcome.to[0]);
  }

  private takePreadmission(): Record<symbol, unknown> | undefined {
    if (!this.preadmitted) return undefined;
    this.preadmitted = false;
    return HOP_ENTRY;
  }

  /** Game events go to the world room, or to the room it is linked to, once a link in progress is done. */
  private dispatch(type: string, data: Record<string, unknown>): void | Promise<void> {
    if (this.linking) return this.linking.then(() => this.dispatchNow(type, data));
    return this.dispatchNow(type, data);
  }

  private dispatchNow(type: string, data: Record<string, unknown>): void | Promise<void> {
    const target = this.linked?.room.handles(type) ? this.linked : this.world;
    if (!target) return this.transport.sendError('NOT_IN_WORLD', 'Enter the world first (world:enter)', type);
    const handled = target.room.dispatch(target.client, type, data);
    return handled ? handled.then(() => this.carryOutApprovedHop()) : this.carryOutApprovedHop();
  }

  private carryOutApprovedHop(): void | Promise<void> {
    const approved = this.approvedHop;
    this.approvedHop = undefined;
    if (approved && this.world?.client === approved.client) return this.hop(approved.hop);
  }

  /**
   * A consented leave: the room saves and ends the session without holding a reconnection seat. `world:left` is
   * sent once the room has finished (it lets the membership go), so entering again right after it succeeds.
   */
  private async leave(): Promise<void> {
    const world = this.world!;
    const refusal = world.room.leaveRefusal?.(world.client);
    if (refusal) throw refusal;
    this.world = undefined;
    this.machine.go('leaving');
    await this.letGo(world.client, false);
  }

  /** Asks the room to let the client go as a consented leave (Colyseus' LEAVE_ROOM message) and waits for it. */
  private letGo(client: ConnectionClient, quiet: boolean): Promise<void> {
    const done = new Promise<void>((resolve) => {
      this.leaving = { client, done: resolve, quiet };
    });
    client.ref.emit('message', Buffer.from([Protocol.LEAVE_ROOM]));
    return done;
  }

  /**
   * Carries out an approved hop: a consented leave (the room saves the character and releases its world claim; the
   * entry below waits for that save), then an entry into the target world with the same character and encoding.
   */
  private async hop(hop: WorldHop): Promise<void> {
    const current = this.world!;
    const from = current.room.worldNumber ?? 0;
    const updates = clientLink(current.client)?.updates ?? 'json';
    this.world = undefined;
    this.machine.go('hopping');
    await this.letGo(current.client, true);
    await this.enterAfterHop(hop.characterId, hop.world, from, updates);
  }

  /**
   * The entry half of a hop, wherever the target world runs (this process, a hand-over, or — on a relayed socket —
   * a `relay:move` the entry process carries out): `world:joined` (the new world) and `world:hopped {from, to}`.
   * When the target refuses now (it filled up since the room checked), the character goes back to the world it
   * left, or to any world with room; the client gets `world:joined` for it and then the refusal (`error`, event
   * `world:hop`). If no world takes it (e.g. a second login of the character took it meanwhile), `world:left`.
   * The hop's approval counted the entry: none of these entries counts again.
   */
  private async enterAfterHop(characterId: string, to: number, from: number, updates: UpdateEncoding): Promise<void> {
    let refusal: unknown;
    for (const world of [to, from, undefined]) {
      if (!this.transport.open) return this.machine.go('closed');
      try {
        const entry = await this.entry({ characterId, world }, updates, world === to ? from : undefined, HOP_ENTRY);
        this.settle(entry);
        if ('moved' in entry) {
          if (refusal === undefined) return;
          break;
        }
        if (world === to) this.transport.sendEvent('world:hopped', { from, to });
        break;
      } catch (error) {
        refusal ??= error;
        if (error instanceof HandoverFailure) return this.machine.go('closed');
        // Another login holds the character now: it is in the world there, not here.
        if (this.transport.toCodedError(error).code === 'ALREADY_ONLINE') break;
      }
    }
    if (refusal !== undefined) {
      if (!this.world && !this.relay) {
        this.machine.go(this.transport.open ? 'idle' : 'closed');
        this.transport.sendEvent('world:left', {});
      }
      const coded = this.transport.toCodedError(refusal);
      this.transport.log.info({ code: coded.code, from, to }, 'world hop refused by the target world');
      this.transport.sendError(coded.code, coded.message, 'world:hop', coded.details);
    }
  }

  /** Takes an entry's outcome: into the world here, or handed over (nothing to do when the entry process moves it). */
  private settle(entry: Entry): void {
    if ('seat' in entry) {
      if (!this.transport.open) {
        this.machine.go('closed');
        return entry.seat.client.disconnected();
      }
      this.world = entry.seat;
      this.machine.go('in-world');
      this.transport.sendEvent('world:joined', {
        roomId: entry.seat.room.roomId,
        world: entry.seat.room.worldNumber,
        sessionId: entry.seat.client.sessionId,
        reconnectionToken: `${entry.seat.room.roomId}:${entry.seat.client.reconnectionToken}`,
      });
    } else if ('relay' in entry) {
      if (!this.transport.open) {
        this.machine.go('closed');
        return entry.relay.clientClosed(1000, 'client gone');
      }
      this.relay = entry.relay;
      this.machine.go('relayed');
    } else {
      this.machine.go('idle');
    }
  }

  /**
   * Enters the world the entry names or the server picks. On one process, a seat here. With the cluster, the world
   * is chosen first (its number; world-choice.ts) and, when it runs on another process, the connection is handed
   * over there — or, on a socket an entry process relayed here, that process is asked to do it (`relay:move`), so
   * sockets are never relayed twice.
   */
  private async entry(data: Record<string, unknown>, updates: UpdateEncoding, hopFrom: number | undefined, marks: Record<symbol, unknown> | undefined): Promise<Entry> {
    if (!this.transport.handover) return { seat: await this.seatHere(data, updates, marks) };
    const picked = data.world === undefined && typeof data.reconnectionToken !== 'string';
    // Worlds the server picked that filled up before the seat (a listing counts seats once they are taken) or could
    // not be reached: the next pick passes them over.
    const passOver = new Set<number>();
    for (let attempt = 0; ; attempt++) {
      const target = await worldOfEntry(data, passOver);
      try {
        return await this.enterAt(target, data, updates, hopFrom, marks);
      } catch (error) {
        const world = target?.data.world;
        if (!picked || attempt >= MAX_PICKS || !PICK_AGAIN.has(this.transport.toCodedError(error).code) || typeof world !== 'number') throw error;
        passOver.add(world);
      }
    }
  }

  /** Enters `target` here, or hands the connection over to its process. */
  private async enterAt(target: EntryTarget | undefined, data: Record<string, unknown>, updates: UpdateEncoding, hopFrom: number | undefined, marks: Record<symbol, unknown> | undefined): Promise<Entry> {
    const handover = this.transport.handover!;
    if (!target || target.processId === matchMaker.processId) return { seat: await this.seatHere(target?.data ?? data, updates, marks) };
    // A world on another process whose address cannot be read now (Redis down, or the process gone before it was
    // unlisted): a seat taken here would be a seat in a room this process does not run.
    const location = await handover.locate(target.processId).catch(() => undefined);
    if (!location) throw new GameError('WORLD_UNAVAILABLE', 'The world\'s server cannot be reached right now; try again shortly', { retryAfterSeconds: 2 });
    const { characterId, createCharacter, world, reconnectionToken, queueTicket } = target.data;
    const enter = { characterId, createCharacter, world, reconnectionToken, updates, queueTicket };
    const admitted = marks?.[PREADMITTED_ENTRY] === true;
    if (handover.relayed) {
      handover.requestMove({ ...enter, ...(hopFrom !== undefined ? { from: hopFrom } : {}), ...(admitted ? { admitted } : {}) });
      return { moved: true };
    }
    const relay = await handover.open(location, enter, {
      move: (moved) => this.transport.enqueue(() => this.moved(moved)),
      closed: () => {
        this.relay = undefined;
        this.apply('relay closed');
      },
    }, admitted);
    return { relay };
  }

  private seatHere(data: Record<string, unknown>, updates: UpdateEncoding, marks: Record<symbol, unknown> | undefined): Promise<Seat> {
    return typeof data.reconnectionToken === 'string'
      ? resumeWorldSeat(this.transport, data.reconnectionToken, this.identity, updates)
      : takeWorldSeat(this.transport, data, updates, marks);
  }

  /** The world's process asked this (entry) process to enter another world for the connection (relay:move). */
  private async moved(data: Record<string, unknown>): Promise<void> {
    this.relay = undefined;
    this.apply('relay:move');
    const { from, admitted, ...entry } = data;
    const updates = isUpdateEncoding(entry.updates) ? entry.updates : 'json';
    // Believed only from an upstream socket: the world that approved a hop counted its entry.
    if (admitted === true) this.preadmitted = true;
    if (typeof from === 'number' && typeof entry.world === 'number' && typeof entry.characterId === 'string') {
      this.preadmitted = false;
      return this.enterAfterHop(entry.characterId, entry.world, from, updates);
    }
    try {
      await this.enter({ ...entry, updates });
    } catch (error) {
      const coded = this.transport.toCodedError(error);
      this.transport.sendError(coded.code, coded.message, 'world:enter', coded.details);
    }
  }
}
