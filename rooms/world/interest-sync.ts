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

export class InterestSync {
  private readonly snapshots = new Map<TrackedEntity, string>();
  private readonly deltas = new Map<TrackedEntity, string>();
  private tickStartedAt = Date.now();

  /** Drops the per-tick JSON cache; call once per tick before sending. */
  beginTick(): void {
    this.snapshots.clear();
    this.deltas.clear();
    this.tickStartedAt = Date.now();
  }

  /** A fresh view for an SDK client (JSON clients have none and receive no view-tagged state). */
  attach(client: Client): void {
    if (!isLinkedClient(client)) client.view = new StateView();
  }

  deliver(client: Client, tick: number, diff: InterestDiff): void {
    if (diff.added.length === 0 && diff.changed.length === 0 && diff.removed.length === 0) return;
    const link = clientLink(client);
    if (link) {
      link.sendText(this.worldUpdate(tick, diff));
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
