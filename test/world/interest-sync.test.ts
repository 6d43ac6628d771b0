/**
 * world:update frames as the room assembles them, on the real InterestSync, SpatialGrid and InterestSet with
 * hand-driven entities: a changed entity carries only the fields that changed, yet every observer ends up with the
 * entity's true values, whenever it started seeing it (the room's real socket path is in world-json.test.ts).
 */
import assert from 'node:assert/strict';
import type { Client } from '@colyseus/core';
import { CLIENT_LINK, SharedEvent, type ClientLink } from '../../rooms/client-link.ts';
import { InterestSet, SpatialGrid, type TrackedEntity } from '../../rooms/world/interest.ts';
import { InterestSync } from '../../rooms/world/interest-sync.ts';
import { changesOfSet, decodeMove, moveCode, movesOf, packedMoves, type CompactSetEntry, type UpdateEncoding } from '../../rooms/world/update-frames.ts';

class Walker implements TrackedEntity {
  interestMark = 0;
  tickChange: object | undefined = undefined;
  readonly kind = 'player' as const;
  readonly id: string;
  x: number;
  z: number;
  action = 'idle';
  name: string;
  constructor(id: string, x: number, z: number) {
    this.id = id;
    this.name = id;
    this.x = x;
    this.z = z;
  }
  snapshot() {
    return { kind: this.kind, id: this.id, name: this.name, x: this.x, z: this.z, action: this.action };
  }
  delta() {
    return { kind: this.kind, id: this.id, x: this.x, z: this.z, action: this.action };
  }
}

type Frame = { tick: number; added?: any[]; changed?: any[]; removed?: any[]; moved?: string; set?: CompactSetEntry[] };

class Observer {
  readonly frames: Frame[] = [];
  readonly interest = new InterestSet();
  readonly client: Client;
  /** What this observer believes, by id, from applying its frames the way docs/protocol.md says. */
  readonly known = new Map<string, Record<string, unknown>>();
  private readonly byHandle = new Map<number, Record<string, unknown>>();
  /** Compact re-entries received (entities shown again without their fixed fields). */
  returns = 0;

  readonly self: Walker;

  constructor(self: Walker, updates: UpdateEncoding = 'json') {
    this.self = self;
    const link: ClientLink = {
      updates,
      sendText: (text) => this.receive([text]),
      sendTexts: (frames) => this.receive(frames.map((f) => f.text)),
      joinRoom: async () => {},
      hopWorld: () => {},
    };
    this.client = { [CLIENT_LINK]: link } as unknown as Client;
  }

  /** Each socket write, as the frames it carried (event types). */
  readonly writes: string[][] = [];

  private receive(texts: string[]): void {
    const events = texts.map((text) => JSON.parse(text));
    this.writes.push(events.map((e) => e.type));
    for (const event of events) if (event.type === 'world:update') this.apply(event.data);
  }

  private apply(frame: Frame): void {
    this.frames.push(frame);
    for (const entity of frame.added ?? []) {
      // A compact re-entry has no id: the entity shown before under that handle, with its changing fields.
      const whole = entity.id === undefined ? { ...this.byHandle.get(entity.n)!, ...entity } : { ...entity };
      this.known.set(whole.id, whole);
      if (whole.n !== undefined) this.byHandle.set(whole.n, whole);
      this.returns += entity.id === undefined ? 1 : 0;
    }
    for (const code of movesOf(frame.moved ?? '')) {
      const { handle, dx, dz } = decodeMove(code);
      const entity = this.byHandle.get(handle)!;
      entity.x = (entity.x as number) + dx;
      entity.z = (entity.z as number) + dz;
    }
    for (const change of [...(frame.changed ?? []), ...changesOfSet(frame.set ?? [])]) {
      const entity = change.n !== undefined ? this.byHandle.get(change.n)! : this.known.get(change.id)!;
      const { n: _n, ...fields } = change;
      Object.assign(entity, fields);
    }
    for (const gone of frame.removed ?? []) {
      if (typeof gone === 'number') {
        // Kept by handle (a compact client keeps what it was shown): it may come back without its fixed fields.
        this.known.delete(this.byHandle.get(gone)!.id as string);
      } else this.known.delete(gone.id);
    }
  }
}

describe('world:update frames (InterestSync)', () => {
  const radius = 8;

  function world() {
    const grid = new SpatialGrid(radius);
    const sync = new InterestSync();
    let dirty = new Set<TrackedEntity>();
    let tick = 0;
    const observers: Observer[] = [];
    return {
      grid, sync, observers,
      spawn(entity: Walker) {
        grid.insert(entity);
        dirty.add(entity);
      },
      change(entity: Walker, apply: () => void) {
        const [x, z] = [entity.x, entity.z];
        apply();
        grid.move(entity, x, z);
        dirty.add(entity);
      },
      /** An observer arriving mid-tick (as a joining player does): it gets what it sees now. */
      join(observer: Observer) {
        observers.push(observer);
        const diff = observer.interest.update(grid, observer.self.id, observer.self.x, observer.self.z, radius);
        sync.deliver(observer.client, tick, diff, observer.interest.visible);
      },
      tick() {
        const current = dirty;
        dirty = new Set();
        tick++;
        sync.beginTick(current);
        for (const o of observers) {
          sync.deliver(o.client, tick, o.interest.update(grid, o.self.id, o.self.x, o.self.z, radius), o.interest.visible);
        }
      },
    };
  }

  /** A world of two walkers two tiles apart, a watching b, one tick in. */
  function aWatchingB() {
    const w = world();
    const a = new Walker('a', 10, 10);
    const b = new Walker('b', 12, 10);
    w.spawn(a);
    w.spawn(b);
    w.tick();
    const observer = new Observer(a);
    w.join(observer);
    return { w, a, b, observer };
  }

  const truth = (...entities: Walker[]) => new Map(entities.map((e) => [e.id, e.snapshot() as Record<string, unknown>]));
  const beliefs = (o: Observer) => new Map([...o.known].map(([id, v]) => [id, { kind: v.kind, id: v.id, name: v.name, x: v.x, z: v.z, action: v.action }]));

  it('sends a changed entity as its kind, id and the fields that changed, and nothing for an unchanged one', () => {
    const { w, a, b, observer } = aWatchingB();
    w.change(b, () => { b.x = 13; });
    w.tick();
    assert.deepEqual(observer.frames.at(-1)!.changed, [{ kind: 'player', id: 'b', x: 13 }]);
    w.change(b, () => { b.action = 'walking'; b.z = 11; });
    w.tick();
    assert.deepEqual(observer.frames.at(-1)!.changed, [{ kind: 'player', id: 'b', z: 11, action: 'walking' }]);
    const sent = observer.frames.length;
    w.change(b, () => { b.name = 'renamed'; }); // dirty, but no field a delta carries changed
    w.tick();
    assert.equal(observer.frames.length, sent, 'a tick with nothing to tell sends no frame');
  });

  it('keeps every observer right when an entity changes and changes back while another starts seeing it', () => {
    const w = world();
    const a = new Walker('a', 10, 10);
    const b = new Walker('b', 12, 10);
    const c = new Walker('c', 30, 30);
    for (const e of [a, b, c]) w.spawn(e);
    w.tick();
    const early = new Observer(a);
    w.join(early);
    w.tick();
    // Between two ticks b changes, c comes close and joins, and b changes back: the tick publishes no change of b,
    // so c must have been shown b as published, not as it was for a moment.
    w.change(b, () => { b.action = 'fighting'; });
    w.change(c, () => { c.x = 11; c.z = 11; });
    const late = new Observer(c);
    w.join(late);
    w.change(b, () => { b.action = 'idle'; });
    w.tick();
    w.change(b, () => { b.x = 14; });
    w.tick();
    assert.deepEqual(beliefs(early), truth(a, b, c));
    assert.deepEqual(beliefs(late), truth(a, b, c));
  });

  it('compact frames carry handles, a move code per step and changed fields only; a client applying them ends up right', () => {
    const { w, a, b, observer: plain } = aWatchingB();
    const compact = new Observer(a, 'compact');
    w.join(compact);
    const bHandle = compact.frames[0].added!.find((e) => e.id === 'b')!.n;
    assert.equal(typeof bHandle, 'number');
    w.change(b, () => { b.x = 14; b.z = 9; b.action = 'running'; }); // a run: two tiles
    w.change(a, () => { a.x = 50; }); // a teleport: too far for a move code, and b leaves a's area
    w.tick();
    const frame = compact.frames.at(-1)!;
    assert.deepEqual(frame.removed, [bHandle]);
    const aHandle = compact.frames[0].added!.find((e) => e.id === 'a')!.n;
    assert.deepEqual(frame.set, [['x', 50, aHandle]], 'a field and its value, then who took it');
    assert.equal(frame.changed, undefined, 'compact frames carry their changes in set');
    assert.equal(frame.moved, undefined, 'b left the area, and a teleport is not a step');
    w.change(a, () => { a.x = 13; });
    w.tick();
    w.change(b, () => { b.x = 15; b.z = 10; });
    w.tick();
    assert.deepEqual(movesOf(compact.frames.at(-1)!.moved!), [moveCode(bHandle, 1, 1)]);
    assert.equal(compact.returns, 1, 'b came back into view without its fixed fields');
    assert.equal(compact.frames.at(-1)!.set, undefined);
    // Two entities taking the same value share one set entry.
    w.change(a, () => { a.action = 'fighting'; });
    w.change(b, () => { b.action = 'fighting'; b.x = 16; });
    w.tick();
    const shared = compact.frames.at(-1)!.set!;
    assert.equal(shared.length, 1);
    assert.deepEqual([shared[0][0], shared[0][1], ...(shared[0].slice(2) as number[]).sort((x, y) => x - y)], ['action', 'fighting', ...[aHandle, bHandle].sort((x, y) => x - y)]);
    assert.deepEqual(beliefs(compact), truth(a, b));
    assert.deepEqual(beliefs(plain), truth(a, b));
    const compactBytes = JSON.stringify(compact.frames.at(-1)).length;
    const plainBytes = JSON.stringify(plain.frames.at(-1)).length;
    assert.ok(compactBytes < plainBytes, `compact ${compactBytes} bytes, plain ${plainBytes}`);
  });

  it('sends events queued for the tick with the next world:update, in one write, or alone when nothing changed', () => {
    const { w, a, b, observer } = aWatchingB();
    const chat = (text: string) => w.sync.sendWithTick(observer.client, new SharedEvent('chat:message', { text }));
    chat('one');
    chat('two');
    assert.equal(observer.writes.length, 1, 'nothing goes before the tick');
    w.change(b, () => { b.x = 13; });
    w.tick();
    assert.deepEqual(observer.writes.at(-1), ['chat:message', 'chat:message', 'world:update']);
    chat('three');
    w.tick();
    assert.deepEqual(observer.writes.at(-1), ['chat:message'], 'a tick with no update still delivers the queue');
    w.tick();
    assert.deepEqual(observer.writes.at(-1), ['chat:message'], 'and sends it once');
  });

  it('shows a compact client a returning entity without its fixed fields, unless they changed while it was away', () => {
    const { w, a, b } = aWatchingB();
    const compact = new Observer(a, 'compact');
    w.join(compact);
    const away = () => w.change(b, () => { b.x = 40; });
    const back = () => w.change(b, () => { b.x = 12; });
    away();
    w.tick();
    back();
    w.tick();
    assert.equal(compact.returns, 1);
    assert.deepEqual(Object.keys(compact.frames.at(-1)!.added![0]).sort(), ['action', 'n', 'x', 'z']);
    assert.deepEqual(beliefs(compact), truth(a, b));
    away();
    w.tick();
    b.name = 'renamed'; // a fixed field, changed while out of view
    back();
    w.tick();
    assert.equal(compact.returns, 1, 'shown whole again');
    assert.equal(compact.frames.at(-1)!.added![0].name, 'renamed');
    assert.deepEqual(beliefs(compact), truth(a, b));
  });

  it('round-trips every move code a step of up to two tiles can take, and refuses longer or empty ones', () => {
    for (const handle of [1, 2, 977, 123_456]) {
      for (let dx = -2; dx <= 2; dx++) {
        for (let dz = -2; dz <= 2; dz++) {
          const code = moveCode(handle, dx, dz);
          if (dx === 0 && dz === 0) assert.equal(code, undefined);
          else assert.deepEqual(decodeMove(code!), { handle, dx, dz });
        }
      }
    }
    assert.equal(moveCode(5, 3, 0), undefined);
    const codes = [9_001, 30, 4_562, 31];
    // Differences 30, 1, 4531, 4439 in base 32, the last digit of each from the alphabet's second half.
    assert.equal(packedMoves([...codes]), '-hENzEK3');
    assert.deepEqual(movesOf(packedMoves([...codes])), [30, 31, 4_562, 9_001]);
    assert.deepEqual([packedMoves([0]), packedMoves([31]), packedMoves([32]), packedMoves([1_023]), packedMoves([1_024])], ['g', '_', 'Bg', 'f_', 'BAg']);
    let seed = 11;
    const many = Array.from({ length: 300 }, () => (seed = (seed * 48_271) % 2_147_483_647) % 60_000);
    assert.deepEqual(movesOf(packedMoves([...many])), [...many].sort((x, y) => x - y));
    assert.throws(() => movesOf('g,h'), /not a move digit/);
    assert.equal(moveCode(5, 0, -3), undefined);
  });

  it('measures one JSON observer in fifty against a naive area snapshot and a bit-packed bound', () => {
    const w = world();
    const walkers = Array.from({ length: 60 }, (_, i) => new Walker(`w${i}`, 10 + (i % 6), 10 + Math.floor(i / 6)));
    for (const e of walkers) w.spawn(e);
    w.tick();
    for (const e of walkers) w.join(new Observer(e));
    for (const e of walkers) w.change(e, () => { e.x += 1; });
    w.tick();
    const { sampled, naiveSnapshotBytes, bitpackedBoundBytes, jsonObservers } = w.sync.costs;
    assert.equal(jsonObservers, 60);
    assert.equal(sampled, 1);
    // 60 visible walkers, each a snapshot of ~60 bytes; each walked one tile: 7 bits.
    const snapshotBytes = JSON.stringify(walkers[0].snapshot()).length;
    assert.ok(naiveSnapshotBytes > 60 * (snapshotBytes - 2), `naive ${naiveSnapshotBytes}`);
    assert.equal(bitpackedBoundBytes, Math.ceil((60 * 7) / 8));
  });
});
