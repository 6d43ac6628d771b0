/**
 * Tells each observer what changed around it: SDK clients through their StateView (Colyseus then encodes only
 * what they see), JSON clients through one `world:update` frame per tick assembled from per-entity JSON that is
 * serialised once per tick however many observers see it.
 *
 * A changed entity carries only the fields that changed. That is sound because every observer of an entity holds
 * the same values for its changing fields: the values published at the start of the tick the observer last heard
 * of it. `beginTick` publishes the tick's values of every dirty entity once, and a snapshot sent to an observer
 * mid-tick (an entity coming into view) carries the published values, not live ones that the next tick will
 * publish.
 */
import { StateView, type Schema } from '@colyseus/schema';
import type { Client } from '@colyseus/core';
import { clientLink, isLinkedClient, type SharedEvent, type TextFrame } from '../client-link.ts';
import type { InterestDiff, TrackedEntity } from './interest.ts';
import { roomMessageSink, type UpdateSink } from './sdk-updates.ts';
import {
  BITPACKED_ADD_BITS, BITPACKED_REMOVE_BITS, bitpackedStepBits, changedFields, isActor, packedMoves, moveCode, stepOf, type UpdateEncoding,
} from './update-frames.ts';

type Stateful = TrackedEntity & { state: Schema };
type Values = Record<string, unknown>;

/** One dirty entity's change this tick: its published values, the fields that changed and its step. */
interface TickChange {
  now: Values;
  fields: string[];
  step: { dx: number; dz: number } | undefined;
  /** The JSON delta, built by the first observer that needs it and copied into every other's frame. */
  json?: string;
  /**
   * The compact pieces, built alike: the entity's handle, its move code (null: no step a code carries) and its
   * `"field",value` pairs for the frame's `set` (the changed fields a move code does not carry).
   */
  handle?: number;
  moveCode?: number | null;
  setPairs?: string[];
}

/** The entity's change this tick, if it changed (see TrackedEntity.tickChange). */
const changeOf = (entity: TrackedEntity) => entity.tickChange as TickChange | undefined;

/**
 * How many entities' fixed fields the server remembers having shown one compact client; past it, it forgets them
 * all and shows whole snapshots again (the client may keep everything it was shown).
 */
const MAX_SHOWN_PER_CLIENT = 4096;

/** One JSON observer in every this many has its area measured against the two reference sizes. */
const SAMPLE_EVERY = 50;

/** What one tick's deliveries cost: milliseconds building and writing JSON frames, bytes written, JSON observers. */
export interface DeliveryCosts {
  encodeMs: number;
  sendMs: number;
  jsonBytes: number;
  jsonObservers: number;
  /** Sampled observers, with the bytes a naive whole-area JSON snapshot and a bit-packed encoding would take. */
  sampled: number;
  naiveSnapshotBytes: number;
  bitpackedBoundBytes: number;
}

export class InterestSync {
  /** The changing fields' values each entity's observers hold (see the header). */
  private readonly published = new WeakMap<TrackedEntity, Values>();
  /** Small per-world numbers naming entities in compact frames. */
  private readonly handles = new WeakMap<TrackedEntity, number>();
  private nextHandle = 1;
  /** The entities changed this tick; each carries its TickChange in `tickChange` until the next tick begins. */
  private readonly changes: TrackedEntity[] = [];
  private readonly snapshots = new Map<TrackedEntity, string>();
  private readonly compactSnapshots = new Map<TrackedEntity, string>();
  /** Per tick: each entity's fields that are not in its deltas (name, kind...), and its compact re-entry. */
  private readonly fixedFields = new Map<TrackedEntity, string>();
  private readonly compactReturns = new Map<TrackedEntity, string>();
  /** Per compact client: the fixed fields it was last shown of each entity (for re-entries without them). */
  private readonly shown = new WeakMap<Client, Map<TrackedEntity, string>>();
  /** SDK clients that take the /ws frames as room messages instead of a StateView. */
  private readonly sdkSinks = new WeakMap<Client, UpdateSink>();
  /** Frames for /ws clients that go with their next world:update, in the same socket write. */
  private readonly outboxes = new WeakMap<Client, TextFrame[]>();
  /** The pieces of the JSON frame being built (worldUpdate). */
  private readonly frameParts: string[] = [];
  private tickStartedAt = Date.now();
  private sampleCountdown = SAMPLE_EVERY;
  /** This tick's costs so far (reset by beginTick; read once the tick's deliveries are done). */
  readonly costs: DeliveryCosts = { encodeMs: 0, sendMs: 0, jsonBytes: 0, jsonObservers: 0, sampled: 0, naiveSnapshotBytes: 0, bitpackedBoundBytes: 0 };

  /** Publishes this tick's values of the entities changed since the last tick and drops the per-tick caches. */
  beginTick(dirty: ReadonlySet<TrackedEntity>): void {
    for (const entity of this.changes) entity.tickChange = undefined;
    this.changes.length = 0;
    this.snapshots.clear();
    this.compactSnapshots.clear();
    this.fixedFields.clear();
    this.compactReturns.clear();
    this.tickStartedAt = Date.now();
    for (const key of Object.keys(this.costs) as (keyof DeliveryCosts)[]) this.costs[key] = 0;
    for (const entity of dirty) {
      const now = entity.delta();
      const before = this.published.get(entity);
      this.published.set(entity, now);
      // Nothing published yet means nobody was shown it (a snapshot publishes first): there is no one to tell.
      if (!before) continue;
      const fields = changedFields(before, now);
      if (fields.length === 0) continue;
      const change: TickChange = { now, fields, step: stepOf(before, now) };
      entity.tickChange = change;
      this.changes.push(entity);
    }
  }

  /**
   * Sends `event` to a /ws client with its next world:update, or to an SDK client right after its next state patch
   * (at most a tick later, in the same socket write either way). For events that are part of what a tick shows, like
   * public chat.
   */
  sendWithTick(client: Client, event: SharedEvent): void {
    if (!isLinkedClient(client)) return event.sendAfterPatch(client);
    const outbox = this.outboxes.get(client);
    if (outbox) outbox.push(event.frame());
    else this.outboxes.set(client, [event.frame()]);
  }

  /**
   * A fresh view for an SDK client (JSON clients have none and receive no view-tagged state), unless it asked for
   * `updates`: then it gets the /ws frames as room messages (sdk-updates.ts) and no view either.
   */
  attach(client: Client, sdkUpdates?: UpdateEncoding): void {
    if (isLinkedClient(client)) return;
    // A reconnected client arrives holding its dropped connection's view (Colyseus hands it over); it starts afresh.
    this.detach(client);
    if (sdkUpdates) this.sdkSinks.set(client, roomMessageSink(client, sdkUpdates));
    else client.view = new StateView();
  }

  /**
   * Releases a client's view: its id, and its visibility bit on every entity, which would otherwise stay until the
   * garbage collector finds the view (the serializer would go on encoding entities for it meanwhile).
   */
  detach(client: Client): void {
    client.view?.dispose();
    client.view = undefined;
  }

  /**
   * Delivers one observer's difference (InterestSet.update: its `changed` are entities that changed this tick);
   * `visible` is what it sees after it (for the sampled reference sizes).
   */
  deliver(client: Client, tick: number, diff: InterestDiff, visible: ReadonlyArray<TrackedEntity>): void {
    const link = clientLink(client) ?? this.sdkSinks.get(client);
    if (link) {
      this.costs.jsonObservers++;
      if (--this.sampleCountdown === 0) {
        this.sampleCountdown = SAMPLE_EVERY;
        this.sample(diff, visible);
      }
      const changed = diff.changed;
      const outbox = this.outboxes.get(client);
      if (outbox) this.outboxes.delete(client);
      if (diff.added.length === 0 && changed.length === 0 && diff.removed.length === 0) {
        if (outbox) link.sendTexts(outbox);
        return;
      }
      const started = performance.now();
      const frame = link.updates === 'compact' ? this.compactUpdate(client, tick, diff, changed) : this.worldUpdate(tick, diff, changed);
      const encoded = performance.now();
      if (outbox) {
        outbox.push({ text: frame, event: 'world:update' });
        link.sendTexts(outbox);
      } else link.sendText(frame);
      this.costs.encodeMs += encoded - started;
      this.costs.sendMs += performance.now() - encoded;
      this.costs.jsonBytes += Buffer.byteLength(frame);
      return;
    }
    const view = client.view;
    if (!view) return;
    for (const entity of diff.added) view.add((entity as Stateful).state);
    for (const entity of diff.removed) view.remove((entity as Stateful).state);
  }

  /** This tick's serialisation of `entity` in `cache`, built on first use (every observer then shares it). */
  private cached<T extends string | null>(cache: Map<TrackedEntity, T>, entity: TrackedEntity, build: () => T): T {
    let value = cache.get(entity);
    if (value === undefined) cache.set(entity, (value = build()));
    return value;
  }

  /** The entity as an observer that starts seeing it now must know it (changing fields as published). */
  private snapshotOf(entity: TrackedEntity): Values {
    let values = this.published.get(entity);
    if (!values) {
      values = entity.delta();
      this.published.set(entity, values);
    }
    return { ...entity.snapshot(), ...values };
  }

  private snapshotJson(entity: TrackedEntity): string {
    return this.cached(this.snapshots, entity, () => JSON.stringify(this.snapshotOf(entity)));
  }

  private deltaJson(entity: TrackedEntity): string {
    const change = changeOf(entity)!;
    if (change.json === undefined) {
      const delta: Values = { kind: entity.kind, id: entity.id };
      for (const field of change.fields) delta[field] = change.now[field];
      change.json = JSON.stringify(delta);
    }
    return change.json;
  }

  /**
   * The frame's text joined once from its pieces, so it is built flat: concatenated pieces make a rope that the
   * socket write copies flat again, a second copy of every frame for the garbage collector. `frameParts` is reused
   * (written by index, so it keeps its capacity from frame to frame).
   */
  private worldUpdate(tick: number, diff: InterestDiff, changed: TrackedEntity[]): string {
    const parts = this.frameParts;
    let n = 0;
    parts[n++] = `{"type":"world:update","data":{"tick":${tick},"sentAt":${this.tickStartedAt},"added":[`;
    for (let i = 0; i < diff.added.length; i++) {
      if (i > 0) parts[n++] = ',';
      parts[n++] = this.snapshotJson(diff.added[i]);
    }
    parts[n++] = '],"changed":[';
    for (let i = 0; i < changed.length; i++) {
      if (i > 0) parts[n++] = ',';
      parts[n++] = this.deltaJson(changed[i]);
    }
    parts[n++] = '],"removed":[';
    for (let i = 0; i < diff.removed.length; i++) {
      const entity = diff.removed[i];
      parts[n++] = `${i > 0 ? ',' : ''}{"kind":"${entity.kind}","id":${JSON.stringify(entity.id)}}`;
    }
    parts[n++] = ']}}';
    parts.length = n;
    return parts.join('');
  }

  private handleOf(entity: TrackedEntity): number {
    let handle = this.handles.get(entity);
    if (handle === undefined) this.handles.set(entity, (handle = this.nextHandle++));
    return handle;
  }

  /** The move code of a changed entity's step; null when it took none a code carries. */
  private moveCodeOf(change: TickChange, entity: TrackedEntity): number | null {
    if (change.moveCode === undefined) {
      const step = change.step;
      change.moveCode = (step && moveCode(this.handleOfChange(change, entity), step.dx, step.dz)) ?? null;
    }
    return change.moveCode;
  }

  private handleOfChange(change: TickChange, entity: TrackedEntity): number {
    return (change.handle ??= this.handleOf(entity));
  }

  /** The changed fields a move code does not already carry, each as the `"field",value` that opens a `set` entry. */
  private setPairsOf(change: TickChange, entity: TrackedEntity): string[] {
    if (change.setPairs === undefined) {
      const moved = this.moveCodeOf(change, entity) !== null;
      change.setPairs = [];
      for (const field of change.fields) {
        if (moved && (field === 'x' || field === 'z')) continue;
        change.setPairs.push(`${JSON.stringify(field)},${JSON.stringify(change.now[field])}`);
      }
    }
    return change.setPairs;
  }

  /** The readable snapshot with the handle in front (the same JSON, not serialised again). */
  private compactSnapshotJson(entity: TrackedEntity): string {
    return this.cached(this.compactSnapshots, entity, () => `{"n":${this.handleOf(entity)},${this.snapshotJson(entity).slice(1)}`);
  }

  /** The snapshot's fields that no delta carries (they change rarely: name, levels, appearance). */
  private fixedFieldsOf(entity: TrackedEntity): string {
    return this.cached(this.fixedFields, entity, () => {
      const snapshot = this.snapshotOf(entity);
      const published = this.published.get(entity)!;
      const fixed: Values = {};
      for (const key in snapshot) if (!(key in published) || key === 'kind' || key === 'id') fixed[key] = snapshot[key];
      return JSON.stringify(fixed);
    });
  }

  /** An entity coming back into a compact client's view: its handle and its published changing fields only. */
  private compactReturnJson(entity: TrackedEntity): string {
    return this.cached(this.compactReturns, entity, () => {
      const { kind: _kind, id: _id, ...changing } = this.published.get(entity)!;
      return JSON.stringify({ n: this.handleOf(entity), ...changing });
    });
  }

  /** A whole snapshot, or only the changing fields when this client was shown the same fixed fields before. */
  private compactAddedJson(client: Client, entity: TrackedEntity): string {
    let shown = this.shown.get(client);
    if (!shown) this.shown.set(client, (shown = new Map()));
    const fixed = this.fixedFieldsOf(entity);
    if (shown.get(entity) === fixed) return this.compactReturnJson(entity);
    if (shown.size >= MAX_SHOWN_PER_CLIENT) shown.clear();
    shown.set(entity, fixed);
    return this.compactSnapshotJson(entity);
  }

  /** docs/protocol.md, "Compact updates": empty lists are left out. */
  private compactUpdate(client: Client, tick: number, diff: InterestDiff, changed: TrackedEntity[]): string {
    let frame = `{"type":"world:update","data":{"tick":${tick},"sentAt":${this.tickStartedAt}`;
    if (diff.added.length > 0) frame += `,"added":[${diff.added.map((e) => this.compactAddedJson(client, e)).join(',')}]`;
    const moves: number[] = [];
    // Changed fields grouped by field and value: `"action","walking"` → the handles that took it.
    const sets = new Map<string, number[]>();
    for (const entity of changed) {
      const change = changeOf(entity)!;
      const code = this.moveCodeOf(change, entity);
      if (code !== null) moves.push(code);
      for (const pair of this.setPairsOf(change, entity)) {
        const handles = sets.get(pair);
        const handle = this.handleOfChange(change, entity);
        if (handles) handles.push(handle);
        else sets.set(pair, [handle]);
      }
    }
    if (moves.length > 0) frame += `,"moved":"${packedMoves(moves)}"`;
    if (sets.size > 0) frame += `,"set":[${[...sets].map(([pair, handles]) => `[${pair},${handles.join(',')}]`).join(',')}]`;
    if (diff.removed.length > 0) frame += `,"removed":[${diff.removed.map((e) => this.handleOf(e)).join(',')}]`;
    return `${frame}}}`;
  }

  /** What a naive whole-area snapshot and a bit-packed actor update would have taken for this observer. */
  private sample(diff: InterestDiff, visible: ReadonlyArray<TrackedEntity>): void {
    let naive = `{"type":"world:update","data":{"tick":0,"sentAt":${this.tickStartedAt},"entities":[]}}`.length;
    let bits = 0;
    const added = new Set(diff.added);
    for (const entity of visible) {
      naive += this.snapshotJson(entity).length + 1;
      if (!isActor(entity.kind)) continue;
      bits += added.has(entity) ? BITPACKED_ADD_BITS : bitpackedStepBits(changeOf(entity)?.step);
    }
    for (const entity of diff.removed) if (isActor(entity.kind)) bits += BITPACKED_REMOVE_BITS;
    this.costs.sampled++;
    this.costs.naiveSnapshotBytes += naive;
    this.costs.bitpackedBoundBytes += Math.ceil(bits / 8);
  }
}
