/**
 * src/shared-view-patches.ts against Colyseus' own SchemaSerializer: two copies of a world state get the same
 * seeded play (players joining, walking and leaving, NPCs changing, views gaining and losing entities), one patched
 * by each serializer. After every patch, each client's decoder must hold the same state from both, and exactly the
 * entities of its view with their current values.
 */
import assert from 'node:assert/strict';
import { ClientState, SchemaSerializer, type Client } from '@colyseus/core';
import { Decoder, StateView } from '@colyseus/schema';
import { NpcState, PlayerState, WorldState } from '../../schema/world-state.ts';
import { SharedViewPatchSerializer } from '../../src/shared-view-patches.ts';

type Plain = Record<string, unknown>;

/** A seeded pseudo-random sequence (mulberry32), so both copies get the same play. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Observer {
  client: Client;
  view: StateView;
  decoder: Decoder<WorldState>;
  frames: Uint8Array[];
}

/** One copy of the world: its state, serializer and observers, driven by the same script as the other copy. */
class Copy {
  readonly state = new WorldState();
  readonly serializer: SchemaSerializer<WorldState>;
  readonly observers: Observer[] = [];

  constructor(serializer: SchemaSerializer<WorldState>) {
    this.serializer = serializer;
    serializer.reset(this.state);
  }

  addObserver(): Observer {
    const frames: Uint8Array[] = [];
    const view = new StateView();
    const client = { state: ClientState.JOINED, view, raw: (bytes: Uint8Array) => frames.push(Uint8Array.from(bytes)) } as unknown as Client;
    const observer = { client, view, decoder: new Decoder(new WorldState()), frames };
    this.observers.push(observer);
    return observer;
  }

  /** A joining client: its whole state (as Colyseus sends it on the join) decoded. */
  join(observer: Observer): void {
    observer.decoder.decode(this.serializer.getFullState(observer.client) as Uint8Array, { offset: 1 });
  }

  patch(): void {
    this.serializer.applyPatches(this.observers.map((o) => o.client));
    for (const observer of this.observers) {
      for (const frame of observer.frames.splice(0)) observer.decoder.decode(frame, { offset: 1 });
    }
  }
}

/** What a decoder holds, as plain data. */
const decoded = (decoder: Decoder<WorldState>) => ({
  players: (decoder.state.players.toJSON() ?? {}) as Record<string, Plain>,
  npcs: (decoder.state.npcs.toJSON() ?? {}) as Record<string, Plain>,
});

describe('the shared-bytes patch serializer (src/shared-view-patches.ts)', () => {
  it('gives every client the state Colyseus\' own serializer gives it, and exactly its view', () => {
    const colyseus = new Copy(new SchemaSerializer<WorldState>());
    const shared = new Copy(new SharedViewPatchSerializer<WorldState>());
    const copies = [colyseus, shared];
    const rand = random(37);
    const OBSERVERS = 12;
    let nextPlayer = 0;
    const live = new Set<string>();
    /** Per observer: the ids it should see (the same in both copies). */
    const sees: Array<Set<string>> = [];

    const addPlayer = () => {
      const id = `p${nextPlayer++}`;
      live.add(id);
      const x = Math.floor(rand() * 50);
      for (const copy of copies) copy.state.players.set(id, new PlayerState({ id, name: id, x, z: 0, health: 10, maxHealth: 10, combatLevel: 3, appearance: '', action: 'idle', running: false }));
    };
    for (let i = 0; i < 30; i++) addPlayer();
    for (let i = 0; i < 8; i++) {
      for (const copy of copies) copy.state.npcs.set(`n${i}`, new NpcState({ id: `n${i}`, npcId: 'cow', name: 'Cow', x: i, z: 5, health: 8, maxHealth: 8, action: 'idle' }));
    }
    const entityOf = (copy: Copy, id: string) => (id.startsWith('p') ? copy.state.players.get(id) : copy.state.npcs.get(id))!;

    for (let o = 0; o < OBSERVERS; o++) {
      sees.push(new Set());
      for (const copy of copies) copy.addObserver();
    }

    let compared = 0;
    for (let step = 0; step < 60; step++) {
      // Play: moves, field changes, a join and a leave now and then.
      for (const id of live) {
        if (rand() < 0.7) {
          const dx = rand() < 0.5 ? 1 : -1;
          const action = rand() < 0.2 ? 'walking' : 'idle';
          for (const copy of copies) {
            const player = copy.state.players.get(id)!;
            player.x += dx;
            player.action = action;
          }
        }
      }
      const npc = `n${Math.floor(rand() * 8)}`;
      const health = Math.floor(rand() * 8);
      for (const copy of copies) copy.state.npcs.get(npc)!.health = health;
      if (rand() < 0.3) addPlayer();
      if (rand() < 0.2 && live.size > 5) {
        const gone = [...live][Math.floor(rand() * live.size)];
        live.delete(gone);
        for (let o = 0; o < OBSERVERS; o++) {
          if (sees[o].delete(gone)) for (const copy of copies) copy.observers[o].view.remove(entityOf(copy, gone));
        }
        for (const copy of copies) copy.state.players.delete(gone);
      }
      // Interest: each observer gains and loses entities.
      const ids = [...live, ...Array.from({ length: 8 }, (_, i) => `n${i}`)];
      for (let o = 0; o < OBSERVERS; o++) {
        for (let k = 0; k < 4; k++) {
          const id = ids[Math.floor(rand() * ids.length)];
          const add = rand() < 0.6;
          if (add && !sees[o].has(id)) {
            sees[o].add(id);
            for (const copy of copies) copy.observers[o].view.add(entityOf(copy, id));
          } else if (!add && sees[o].has(id)) {
            sees[o].delete(id);
            for (const copy of copies) copy.observers[o].view.remove(entityOf(copy, id));
          }
        }
      }
      // Observers join late, one every few steps: their whole state first, then patches.
      if (step < OBSERVERS * 3 && step % 3 === 0) for (const copy of copies) copy.join(copy.observers[step / 3]);
      for (const copy of copies) copy.patch();

      for (let o = 0; o < Math.min(OBSERVERS, Math.floor(step / 3) + 1); o++) {
        const fromColyseus = decoded(colyseus.observers[o].decoder);
        const fromShared = decoded(shared.observers[o].decoder);
        assert.deepEqual(fromShared, fromColyseus, `step ${step}, observer ${o}: the same decoded state`);
        const expected = { players: {} as Record<string, Plain>, npcs: {} as Record<string, Plain> };
        for (const id of sees[o]) {
          const entity = entityOf(shared, id).toJSON() as Plain;
          if (id.startsWith('p')) expected.players[id] = entity;
          else expected.npcs[id] = entity;
        }
        assert.deepEqual(fromShared, expected, `step ${step}, observer ${o}: exactly its view, with current values`);
        compared++;
      }
    }
    assert.ok(compared > 400, `compared ${compared} decoded states`);
  });

  it('writes the messages a client staged after the patch (afterNextPatch) right after its frame, in one socket write', () => {
    const state = new WorldState();
    const serializer = new SharedViewPatchSerializer<WorldState>();
    serializer.reset(state);
    const player = new PlayerState({ id: 'p', name: 'p', x: 1, z: 1, health: 10, maxHealth: 10, combatLevel: 3, appearance: '', action: 'idle', running: false });
    state.players.set('p', player);
    const writes: string[][] = [];
    /** The room's list of the clients that staged messages (Colyseus shares one array among a room's clients). */
    const staging: Client[] = [];
    /** A client whose socket records what goes out in each write: frames between cork and uncork are one write. */
    const clientWith = (staged: Uint8Array[] | undefined) => {
      const log: string[] = [];
      writes.push(log);
      let corked = false;
      const view = new StateView();
      view.add(player);
      const socket = { cork: () => (corked = true, log.push('cork')), uncork: () => (corked = false, log.push('uncork')) };
      const raw = (bytes: Uint8Array) => log.push(`${corked ? 'corked ' : ''}${bytes[0] === 1 ? 'message' : 'patch'}`);
      const client = { state: ClientState.JOINED, view, raw, ref: { _socket: socket }, _pendingFrames: staged, _pendingFrameClients: staging } as unknown as Client & { _pendingFrames?: Uint8Array[] };
      if (staged) staging.push(client);
      return client;
    };
    const chatty = clientWith([Uint8Array.of(1, 0), Uint8Array.of(1, 1)]);
    const quiet = clientWith(undefined);
    player.x = 2;
    serializer.applyPatches([chatty, quiet]);
    assert.deepEqual(writes[0], ['cork', 'corked patch', 'corked message', 'corked message', 'uncork']);
    assert.deepEqual(writes[1], ['patch'], 'nothing staged: the frame alone');
    assert.equal(chatty._pendingFrames?.length, 0, 'taken from Colyseus\' staging, so it does not send them again');
  });
});
