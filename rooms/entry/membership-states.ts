/**
 * A /ws connection's world membership as a state machine: its states, what each input does in each state, and the
 * only transitions allowed (membership.ts moves through `MembershipMachine`, which refuses any other). One table,
 * drawn into docs/architecture.md by `npm run docs:architecture`.
 *
 * A connection handles its frames one at a time (docs/protocol.md), so while it is `entering`, `hopping` or
 * `leaving` its next frames wait: those states see no client input, only the events the server itself raises.
 */

export const MEMBERSHIP_STATES = ['idle', 'entering', 'in-world', 'relayed', 'hopping', 'leaving', 'closed'] as const;
export type MembershipState = (typeof MEMBERSHIP_STATES)[number];

/** What can happen to a membership: the client's frames, and what the rooms, the relay and the socket tell it. */
export type MembershipInput =
  | 'world:enter' | 'world:leave' | 'game event'
  | 'hop approved' | 'room ended' | 'relay:move' | 'relay closed' | 'socket closed';

export const MEMBERSHIP_INPUTS: readonly MembershipInput[] = [
  'world:enter', 'world:leave', 'game event', 'hop approved', 'room ended', 'relay:move', 'relay closed', 'socket closed',
];

/** An input's outcome in a state: carried out (to one of `to`), forwarded to the world's process, or refused. */
export type Outcome =
  | { kind: 'go'; to: readonly MembershipState[]; note: string; unless?: string }
  | { kind: 'forward'; note: string }
  | { kind: 'refuse'; code: string; message: string }
  | { kind: 'ignore'; note: string };

const go = (to: readonly MembershipState[], note: string, unless?: string): Outcome => ({ kind: 'go', to, note, unless });
const refuse = (code: string, message: string): Outcome => ({ kind: 'refuse', code, message });
const ignore = (note: string): Outcome => ({ kind: 'ignore', note });
const forward: Outcome = { kind: 'forward', note: 'copied to the world\'s process' };

const NOT_IN_WORLD = refuse('NOT_IN_WORLD', 'Enter the world first (world:enter)');
const closed = go(['closed'], 'the memberships are let go');

/** Every state × input. A missing cell cannot happen (the frames wait, see the header); it is refused as a bug. */
export const MEMBERSHIP_TABLE: Readonly<Record<MembershipState, Partial<Record<MembershipInput, Outcome>>>> = {
  idle: {
    'world:enter': go(['entering'], 'choose the world, take a seat here or hand over'),
    'world:leave': NOT_IN_WORLD,
    'game event': NOT_IN_WORLD,
    'room ended': ignore('a room it already left'),
    'socket closed': closed,
  },
  entering: {
    'room ended': ignore('the world let a seat go that the entry had not settled'),
    'socket closed': closed,
  },
  'in-world': {
    'world:enter': refuse('ALREADY_IN_WORLD', 'This connection is already in the world'),
    'world:leave': go(['leaving'], 'a consented leave', 'LEAVE_IN_COMBAT within 17 ticks of a hit'),
    'game event': go(['in-world'], 'dispatched to the world room, or to the trade room it is linked to'),
    'hop approved': go(['hopping'], 'after the event that approved it'),
    'room ended': closed,
    'socket closed': closed,
  },
  relayed: {
    'world:enter': forward,
    'world:leave': forward,
    'game event': forward,
    'relay:move': go(['entering'], 'the world\'s process asked this entry process to enter another world'),
    'relay closed': closed,
    'socket closed': closed,
  },
  hopping: {
    'room ended': ignore('the world it is leaving let it go'),
    'socket closed': closed,
  },
  leaving: {
    'room ended': ignore('the leave is done'),
    'socket closed': closed,
  },
  closed: {
    'room ended': ignore('nothing left to end'),
    'relay closed': ignore('nothing left to end'),
    'socket closed': ignore('already closed'),
  },
};

/** Where the server's own steps lead (not inputs): the end of an entry, a hop, a leave. */
export const MEMBERSHIP_STEPS: Readonly<Partial<Record<MembershipState, readonly MembershipState[]>>> = {
  entering: ['in-world', 'relayed', 'idle', 'closed'],
  hopping: ['in-world', 'relayed', 'idle', 'closed'],
  leaving: ['idle', 'closed'],
};

/** The outcome of `input` in `state`; a missing cell is refused (see the table). */
export function outcomeOf(state: MembershipState, input: MembershipInput): Outcome {
  return MEMBERSHIP_TABLE[state][input] ?? refuse('INVALID_STATE', `${input} cannot happen while ${state}`);
}

/** Whether the machine may go from `from` to `to`: by an input's outcome or by one of the server's steps. */
export function mayGo(from: MembershipState, to: MembershipState): boolean {
  if (MEMBERSHIP_STEPS[from]?.includes(to)) return true;
  return Object.values(MEMBERSHIP_TABLE[from]).some((outcome) => outcome.kind === 'go' && outcome.to.includes(to));
}

/** The current state, moved only along the table. */
export class MembershipMachine {
  private current: MembershipState = 'idle';

  get state(): MembershipState {
    return this.current;
  }

  /** Moves to `to`; a move the table does not allow is a bug, thrown so that tests catch it. */
  go(to: MembershipState): void {
    if (this.current === to && to !== 'closed') return;
    if (this.current === 'closed') return;
    if (!mayGo(this.current, to)) throw new Error(`membership cannot go from ${this.current} to ${to}`);
    this.current = to;
  }
}

/**
 * Who handles each way into and out of a world, for the event index of docs/architecture.md: the /ws events the
 * membership owns, the hop it carries out for /ws, and the SDK's matchmaking and leave.
 */
export const MEMBERSHIP_EVENTS: ReadonlyArray<{ event: string; area: string; module: string; refusal: string }> = [
  { event: '`world:enter`', area: 'membership (/ws)', module: 'rooms/entry/membership.ts', refusal: '`error`' },
  { event: '`world:leave`', area: 'membership (/ws)', module: 'rooms/entry/membership.ts', refusal: '`error`' },
  { event: 'SDK `join` / `joinOrCreate` of `world`', area: 'membership (SDK)', module: 'rooms/entry/sdk-entry.ts, admission.ts', refusal: 'problem+json' },
  { event: 'SDK `reconnect`', area: 'membership (SDK)', module: 'rooms/entry/sdk-entry.ts, world-seats.ts', refusal: 'problem+json' },
  { event: 'SDK `room.leave()`', area: 'membership (SDK)', module: 'rooms/WorldRoom.ts onLeave, rooms/entry/combat-leave.ts', refusal: '(none: a leave in combat stays on)' },
];

/** The module that carries out a `world:hop` the world approved, for /ws connections. */
export const HOP_MOVER = 'rooms/entry/membership.ts';
