/**
 * Tells each observer what changed around it: SDK clients through their StateView (Colyseus then encodes only
 * what they see), JSON clients through one `world:update` frame per tick assembled from per-entity JSON that is
 * serialised once per tick however many observers see it.
 */
import { StateView, type Schema } from '@colyseus/schema';
import type { Client } from '@colyseus/core';
import { clientLink, isLinkedClient } from '../client-link.ts';
import type { InterestDiff, TrackedEntity } from './interest.ts';

type Stateful = TrackedEntity & { state: Schema };

/** What one tick's deliveries cost: milliseconds building and writing JSON frames, bytes written, JSON observers. */
export interface DeliveryCosts {
  encodeMs: number;
  sendMs: number;
  jsonBytes: number;
  jsonObservers: number;
}

export class InterestSync {
  private readonly snapshots = new Map<TrackedEntity, string>();
  private readonly deltas = new Map<TrackedEntity, string>();
  private tickStartedAt = Date.now();
  /** This tick's costs so far (reset by beginTick; read once the tick's deliveries are done). */
  readonly costs: DeliveryCosts = { encodeMs: 0, sendMs: 0, jsonBytes: 0, jsonObservers: 0 };

  /** Drops the per-tick JSON cache and costs; call once per tick before sending. */
  beginTick(): void {
    this.snapshots.clear();
    this.deltas.clear();
    this.tickStartedAt = Date.now();
    this.costs.encodeMs = 0;
    this.costs.sendMs = 0;
    this.costs.jsonBytes = 0;
    this.costs.jsonObservers = 0;
  }

  /** A fresh view for an SDK client (JSON clients have none and receive no view-tagged state). */
  attach(client: Client): void {
    if (!isLinkedClient(client)) client.view = new StateView();
  }

  deliver(client: Client, tick: number, diff: InterestDiff): void {
    const link = clientLink(client);
    if (link) this.costs.jsonObservers++;
    if (diff.added.length === 0 && diff.changed.length === 0 && diff.removed.length === 0) return;
    if (link) {
      const started = performance.now();
      const frame = this.worldUpdate(tick, diff);
      const encoded = performance.now();
      link.sendText(frame);
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

  private cached(cache: Map<TrackedEntity, string>, entity: TrackedEntity, serialise: () => Record<string, unknown>): string {
    let json = cache.get(entity);
    if (json === undefined) {
      json = JSON.stringify(serialise());
      cache.set(entity, json);
    }
    return json;
  }

  private worldUpdate(tick: number, diff: InterestDiff): string {
    const added = diff.added.map((e) => this.cached(this.snapshots, e, () => e.snapshot())).join(',');
    const changed = diff.changed.map((e) => this.cached(this.deltas, e, () => e.delta())).join(',');
    const removed = diff.removed.map((e) => `{"kind":"${e.kind}","id":${JSON.stringify(e.id)}}`).join(',');
    return `{"type":"world:update","data":{"tick":${tick},"sentAt":${this.tickStartedAt},"added":[${added}],"changed":[${changed}],"removed":[${removed}]}}`;
  }
}
