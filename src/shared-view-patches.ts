/**
 * Colyseus' schema serializer, with each changed entity encoded once per patch instead of once per client that sees
 * it (issue #37).
 *
 * Colyseus encodes a patch for every client's StateView by walking every tree changed in the room and asking the
 * view whether it sees it: with 2,000 walkers in one world that is 2,000 × 2,000 visibility checks and a separate
 * encoding of each visible change for every client, 4 million steps a tick. Here the changed trees are walked once:
 * - A tree filtered only because it sits in a `.view()` collection (an entity: every field filtered, no `@filter`,
 *   no field-level view tag) encodes to the same bytes for every view that sees it. It is encoded once, and its bytes
 *   go to the views whose visibility bit it carries (`ChangeTree.visibleViews`, one bit per view id).
 * - Every other changed tree (the root, the entity maps: their entries are filtered per view by child visibility) is
 *   encoded per view by Colyseus itself, walking a queue that holds only those trees.
 * A client's frame is then what Colyseus would send it: the shared part, its view's own changes (entities added or
 * removed), the per-view trees, and the shared entity bytes in the order their trees changed. The only difference
 * is the order of trees within the view pass (per-view trees first), which keeps a map's new entry ahead of its
 * entity's bytes, as the decoder needs.
 *
 * It depends on the schema encoder's internals (`Root.changes` is the queue `Encoder.encode` walks, the per-tree
 * visibility bitmap, the descriptor's filter fields), all read here and nowhere else; test/world/sdk-view-parity
 * .test.ts compares what an SDK client decodes with what a /ws client is told, and
 * test/world/shared-view-patches.test.ts compares what each client decodes with what Colyseus' own serializer gives.
 */
import { ClientState, Protocol, SchemaSerializer, type Client, type ClientPrivate } from '@colyseus/core';
import type { ChangeTree, Iterator, Schema, StateView } from '@colyseus/schema';
import type { WebSocket } from 'ws';
import { rawSocketOf } from './colyseus-seams.ts';
import { runInSlices, type SlicedRun } from './sliced-run.ts';

type ChangeTreeNode = { changeTree: ChangeTree; next?: ChangeTreeNode; prev?: ChangeTreeNode; position: number };
type ChangeTreeList = { next?: ChangeTreeNode; tail?: ChangeTreeNode; nextPosition: number };
/** The schema internals read here (public members of the schema package, but not its documented API). */
type TreeInternals = ChangeTree & {
  visibleViews?: number[];
  isFiltered: boolean;
  isVisibilitySharedWithParent?: boolean;
  encDescriptor: { filter?: unknown; filterBitmask: number; isSchema: boolean; tags?: unknown[] };
};

/** A view for the one encoding of a shared tree: it sees every tree it is asked about (only shared trees are). */
const SEES_ALL = { isChangeTreeVisible: () => true } as unknown as StateView;

/** True when the tree's filtered changes encode alike for every view that sees it. */
function isShared(tree: TreeInternals): boolean {
  const desc = tree.encDescriptor;
  return tree.isFiltered && desc.isSchema && desc.filter === undefined && desc.filterBitmask === 0
    && !tree.isVisibilitySharedWithParent && !(desc.tags ?? []).some((tag) => tag !== undefined);
}

/** How long a patch's sends may hold the event loop before yielding (0: send every frame at once). */
export interface PatchSending {
  sliceMs: number;
  /** Frames sent between two readings of the clock. */
  checkEvery: number;
}

/**
 * A patch's frames, one per client, and the messages each client had staged to follow the patch (Colyseus'
 * `afterNextPatch`: a tick's public chat), sent right after its frame in the same socket write.
 */
interface Outgoing {
  clients: Client[];
  /** Per client: its view's own part of the frame; the shared entity bytes filed for its view follow it. */
  frames: Uint8Array[];
  segments: Array<Uint8Array[] | undefined>;
  after: Map<Client, Uint8Array[]>;
}

/** Sends a client's patch frame and the messages staged after it in one socket write (one syscall, not one each). */
function sendTogether(client: Client, frame: Uint8Array, after: Uint8Array[]): void {
  const socket = rawSocketOf(client.ref as WebSocket);
  socket?.cork();
  try {
    client.raw(frame);
    for (const message of after) client.raw(message);
  } finally {
    socket?.uncork();
  }
}

/**
 * The messages joined clients staged to follow this patch (Colyseus' `afterNextPatch`), taken from Colyseus' own
 * staging, which would otherwise send them as soon as the patch is built, ahead of the frames sent in slices. Only the
 * clients on the room's list of those that staged any are looked at (`_pendingFrameClients`, one array per room).
 */
function takeStaged(clients: Client[]): Map<Client, Uint8Array[]> {
  const taken = new Map<Client, Uint8Array[]>();
  let staging: Array<Client & ClientPrivate> | undefined;
  for (const client of clients as Array<Client & ClientPrivate>) {
    staging = client._pendingFrameClients as Array<Client & ClientPrivate> | undefined;
    if (staging !== undefined) break;
  }
  for (const client of staging ?? []) {
    const frames = client._pendingFrames;
    if (client.state === ClientState.JOINED && frames !== undefined && frames.length > 0) taken.set(client, frames.splice(0));
  }
  return taken;
}

export class SharedViewPatchSerializer<T extends Schema> extends SchemaSerializer<T> {
  private readonly sending: PatchSending;
  /** The last patch's sends, in slices; the next patch finishes them first, so a client's frames stay in order. */
  private sends: SlicedRun | undefined;

  /** Per view id: the shared entity bytes for it this patch (reused from patch to patch). */
  private readonly segments: Uint8Array[][] = [];
  /** The per-view trees' queue, rebuilt each patch from reused nodes. */
  private readonly perViewQueue: ChangeTreeList = { next: undefined, tail: undefined, nextPosition: 0 };
  private readonly perViewNodes: ChangeTreeNode[] = [];
  private readonly singleQueue: ChangeTreeList = { next: undefined, tail: undefined, nextPosition: 0 };
  private readonly singleNode: ChangeTreeNode = { changeTree: undefined as unknown as ChangeTree, position: 0 };

  constructor(sending: PatchSending = { sliceMs: 0, checkEvery: 1 }) {
    super();
    this.sending = sending;
  }

  override applyPatches(clients: Client[], state?: unknown, timing?: Parameters<SchemaSerializer<T>['applyPatches']>[2]): boolean {
    // The last patch's frames go first, so a client's frames stay in order.
    this.sends?.finish();
    // Timed frames (rooms with defineInput), rooms without views and patches with no changed tree: Colyseus' own path.
    if (!this.hasFilters || timing !== undefined || clients.length === 0 || !this.encoder.hasChanges) {
      return super.applyPatches(clients, state, timing);
    }
    this.needFullEncode = true;
    const encoder = this.encoder;
    const root = encoder.root as unknown as { changes: ChangeTreeList };
    const queue = root.changes;
    const it: Iterator = { offset: 1 };
    encoder.sharedBuffer[0] = Protocol.ROOM_STATE_PATCH;
    encoder.encode(it);
    const sharedOffset = it.offset;
    const shared = encoder.sharedBuffer.slice(0, sharedOffset);
    const touched: number[] = [];
    const outgoing: Outgoing = { clients: [], frames: [], segments: [], after: takeStaged(clients) };
    try {
      this.sortChanges(queue, sharedOffset, touched);
      root.changes = this.perViewQueue;
      // The frames are put together as they are sent (sendFrame), in slices: only the encoding holds the loop here.
      const sent = new Map<StateView, { base: Uint8Array; segments: Uint8Array[] | undefined }>();
      for (const client of clients) {
        if (client.state !== ClientState.JOINED) continue;
        const view = client.view;
        let frame: Uint8Array = shared;
        let segments: Uint8Array[] | undefined;
        if (view) {
          let encoded = sent.get(view);
          if (encoded === undefined) {
            it.offset = sharedOffset;
            const filed = this.segments[view.id];
            // The view's list goes with its frame; the next patch files into a new one.
            if (filed !== undefined && filed.length > 0) this.segments[view.id] = [];
            encoded = { base: encoder.encodeView(view, sharedOffset, it), segments: filed?.length ? filed : undefined };
            sent.set(view, encoded);
          }
          frame = encoded.base;
          segments = encoded.segments;
        }
        outgoing.clients.push(client);
        outgoing.frames.push(frame);
        outgoing.segments.push(segments);
      }
    } finally {
      root.changes = queue;
      for (const id of touched) this.segments[id].length = 0;
      this.perViewQueue.next = this.perViewQueue.tail = undefined;
    }
    encoder.discardChanges();
    // Sliced sends start in a turn of their own: the build above has just held the loop. Without slices, all at once.
    const { sliceMs, checkEvery } = this.sending;
    this.sends = runInSlices(outgoing.clients.length, (i) => sendFrame(outgoing, i), () => {},
      sliceMs > 0 ? { sliceMs, checkEvery, deferFirst: true } : { sliceMs: Infinity, checkEvery });
    return true;
  }

  /**
   * Walks the patch's changed trees once: encodes each shared tree and files its bytes under every view that sees
   * it (`touched` collects those view ids); links every other tree into the per-view queue, in the same order.
   */
  private sortChanges(queue: ChangeTreeList, scratchOffset: number, touched: number[]): void {
    const encoder = this.encoder;
    const root = encoder.root as unknown as { changes: ChangeTreeList };
    let perViewCount = 0;
    let last: ChangeTreeNode | undefined;
    for (let node = queue.next; node; node = node.next) {
      const tree = node.changeTree as TreeInternals;
      if (!isShared(tree)) {
        const copy = (this.perViewNodes[perViewCount] ??= { changeTree: tree, position: 0 });
        perViewCount++;
        copy.changeTree = tree;
        copy.position = node.position;
        copy.next = undefined;
        copy.prev = last;
        if (last) last.next = copy;
        else this.perViewQueue.next = copy;
        last = copy;
        continue;
      }
      const bits = tree.visibleViews;
      if (!bits) continue;
      this.singleNode.changeTree = tree;
      this.singleQueue.next = this.singleQueue.tail = this.singleNode;
      root.changes = this.singleQueue;
      const it: Iterator = { offset: scratchOffset };
      let bytes: Uint8Array;
      try {
        bytes = encoder.encode(it, SEES_ALL);
      } finally {
        root.changes = queue;
      }
      if (it.offset === scratchOffset) continue;
      const segment = bytes.slice(scratchOffset, it.offset);
      for (let slot = 0; slot < bits.length; slot++) {
        let word = bits[slot];
        while (word !== 0) {
          const bit = word & -word;
          word ^= bit;
          const id = slot * 32 + (31 - Math.clz32(bit));
          const list = (this.segments[id] ??= []);
          if (list.length === 0) touched.push(id);
          list.push(segment);
        }
      }
    }
    this.perViewQueue.tail = last;
    this.perViewQueue.nextPosition = queue.nextPosition;
  }
}

/** Sends the patch's frame to its `i`th client (if it is still joined), with the messages it staged to follow it. */
function sendFrame(outgoing: Outgoing, i: number): void {
  const client = outgoing.clients[i];
  if (client.state !== ClientState.JOINED) return;
  const frame = withSegments(outgoing.frames[i], outgoing.segments[i]);
  const staged = outgoing.after.size > 0 ? outgoing.after.get(client) : undefined;
  if (staged) sendTogether(client, frame, staged);
  else client.raw(frame);
}

/** One frame: the view's own part, then the shared entity bytes filed for it. */
function withSegments(base: Uint8Array, segments: Uint8Array[] | undefined): Uint8Array {
  if (!segments || segments.length === 0) return base;
  let length = base.length;
  for (const segment of segments) length += segment.length;
  const frame = Buffer.allocUnsafe(length);
  frame.set(base, 0);
  let offset = base.length;
  for (const segment of segments) {
    frame.set(segment, offset);
    offset += segment.length;
  }
  return frame;
}
