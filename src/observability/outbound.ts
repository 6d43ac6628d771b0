/**
 * Counting events sent to clients without work on the hot path: each send adds one to a slot of a typed array
 * (a Map lookup, no allocation); the prom-client counter is brought up to date when /metrics is scraped. The label
 * is the event name when it is one of OUTBOUND_EVENTS (the spec's server → client events), `other` otherwise, so
 * the label set is fixed whatever the rooms send.
 */
import type { Counter } from 'prom-client';

/** The server → client events of docs/protocol.md; anything else is counted as `other`. */
export const OUTBOUND_EVENTS: readonly string[] = [
  'authResult', 'error', 'world:joined', 'world:left', 'world:update', 'player:sync', 'player:path', 'player:move',
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

export class OutboundCounts {
  private readonly slots = new Map<string, number>();
  private readonly labels: ReadonlyArray<{ event: string }>;
  private readonly counts: Float64Array;
  private readonly reported: Float64Array;
  private readonly other: number;

  constructor(events: readonly string[] = OUTBOUND_EVENTS) {
    events.forEach((event, i) => this.slots.set(event, i));
    this.other = events.length;
    this.labels = [...events, OTHER_EVENT].map((event) => ({ event }));
    this.counts = new Float64Array(this.labels.length);
    this.reported = new Float64Array(this.labels.length);
  }

  /** One event of this type went out. */
  count(type: string): void {
    this.counts[this.slots.get(type) ?? this.other]++;
  }

  /** Adds what was counted since the last flush to the counter (its `collect` hook calls this). */
  flushInto(counter: Counter<'event'>): void {
    for (let i = 0; i < this.counts.length; i++) {
      const delta = this.counts[i] - this.reported[i];
      if (delta > 0) {
        counter.inc(this.labels[i], delta);
        this.reported[i] = this.counts[i];
      }
    }
  }
}
