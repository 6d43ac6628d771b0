/**
 * Counting client events, in and out, without work on the hot path: each send adds one to a slot of a typed array
 * (a Map lookup, no allocation); the prom-client counter is brought up to date when /metrics is scraped. The label
 * is the event name when it is one of OUTBOUND_EVENTS (the spec's server → client events), `other` otherwise, so
 * the label set is fixed whatever the rooms send.
 */
import type { Counter } from 'prom-client';

/** The server → client events of docs/protocol.md; anything else is counted as `other`. */
export const OUTBOUND_EVENTS: readonly string[] = [
  'authResult', 'error', 'world:joined', 'world:left', 'queue:position', 'world:update', 'player:sync', 'player:path', 'player:energy', 'player:move',
  'player:action', 'player:chat', 'player:died', 'player:kicked', 'chat:message', 'chat:privateMessage',
  'chat:privateMessageSent', 'action:started', 'action:stopped', 'gather:success', 'process:made', 'fire:lit',
  'combat:hit', 'npc:died', 'skill:xp', 'skill:levelUp', 'skills:state', 'inventory:used', 'inventory:dropped',
  'inventory:use', 'groundItem:pickedUp', 'gravestone:claimed', 'bank:state', 'bank:deposit', 'bank:depositAll',
  'shop:state', 'prayer:state', 'prayer:activated', 'prayer:deactivated', 'prayer:recharged', 'quest:state',
  'quest:update', 'quest:completed', 'dialogue:node', 'dialogue:closed', 'social:state', 'friend:added',
  'friend:removed', 'friend:status', 'friend:requestSent', 'friend:requestReceived', 'friend:declined',
  'ignore:added', 'ignore:removed', 'homeTeleport:started', 'homeTeleport:interrupted', 'homeTeleport:completed',
  'admin:granted', 'admin:done', 'tradeIncoming', 'tradeStarted', 'tradeUpdated', 'tradeConfirmScreen',
  'tradeCompleted', 'tradeCancelled', 'tradeError',
];

export const OTHER_EVENT = 'other';

/**
 * Per-event counts for a counter labelled `event`: the events given up front, plus (up to `room` more) those
 * `admit` adds later; anything else counts under `fallback`.
 */
export class EventCounts {
  private readonly slots = new Map<string, number>();
  private readonly labels: Array<{ event: string }> = [];
  private counts: Float64Array;
  private reported: Float64Array;
  private readonly fallback: number;
  private readonly capacity: number;

  constructor(events: readonly string[], fallback: string, room = 0) {
    this.capacity = events.length + 1 + room;
    this.counts = new Float64Array(this.capacity);
    this.reported = new Float64Array(this.capacity);
    for (const event of events) this.admit(event);
    this.fallback = this.admit(fallback);
  }

  /** Gives an event a slot of its own (while there is room); returns the slot. */
  admit(event: string): number {
    const known = this.slots.get(event);
    if (known !== undefined) return known;
    if (this.labels.length >= this.capacity) return this.fallback;
    this.slots.set(event, this.labels.length);
    this.labels.push({ event });
    return this.labels.length - 1;
  }

  /** One event of this type (hot path: a Map lookup and an increment, no allocation). */
  count(type: string): void {
    this.counts[this.slots.get(type) ?? this.fallback]++;
  }

  /** Adds what was counted since the last flush to the counter (its `collect` hook calls this). */
  flushInto(counter: Counter<'event'>): void {
    for (let i = 0; i < this.labels.length; i++) {
      const delta = this.counts[i] - this.reported[i];
      if (delta > 0) {
        counter.inc(this.labels[i], delta);
        this.reported[i] = this.counts[i];
      }
    }
  }
}

/** The events sent to clients: OUTBOUND_EVENTS, the rest as `other`. */
export class OutboundCounts extends EventCounts {
  constructor(events: readonly string[] = OUTBOUND_EVENTS) {
    super(events, OTHER_EVENT);
  }
}
