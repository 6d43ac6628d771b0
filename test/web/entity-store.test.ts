/** The play page's view of the world, kept from world:update frames as docs/protocol.md describes them. */
import assert from 'node:assert/strict';
import { EntityStore, TICK_MS } from '../../src/web/play/lib/entity-store.js';

// Payloads and state are read field by field, as a page does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = any;

/** The readable frame of docs/protocol.md ("world:update"), and what follows it. */
const FIRST = {
  tick: 1042, sentAt: 1795323600000,
  added: [
    { kind: 'npc', id: 'npc-3', npcId: 'goblin', name: 'Goblin', x: 96, z: 104, health: 80, maxHealth: 80, action: 'idle' },
    { kind: 'player', id: 'c0', name: 'Ava', x: 100, z: 100, health: 100, maxHealth: 100, action: 'idle' },
    { kind: 'player', id: 'd7', name: 'Bo', x: 102, z: 100, health: 100, maxHealth: 100, action: 'idle' },
  ],
  changed: [], removed: [],
};

describe('play page: the entity store', () => {
  it('adds whole snapshots, merges changed fields by kind and id, drops removed ones', () => {
    const store = new EntityStore();
    store.apply(FIRST, 0);
    const touched = store.apply({ tick: 1043, added: [], changed: [{ kind: 'player', id: 'c0', x: 101, action: 'walking' }, { kind: 'npc', id: 'npc-3', health: 70 }], removed: [{ kind: 'player', id: 'd7' }] }, 600);
    assert.equal(store.tick, 1043);
    assert.deepEqual(touched.changed.map((e: { id: string }) => e.id), ['c0', 'npc-3']);
    assert.deepEqual(touched.removed.map((e: { id: string }) => e.id), ['d7']);
    const ava: Data = store.get('player', 'c0');
    assert.equal(ava.x, 101);
    assert.equal(ava.z, 100, 'fields the change does not carry are kept');
    assert.equal(ava.action, 'walking');
    assert.equal(ava.name, 'Ava');
    assert.equal((store.get('npc', 'npc-3') as Data).health, 70);
    assert.equal(store.get('player', 'd7'), undefined);
    assert.equal(store.count('player'), 1);
  });

  it('ignores changes and removals of entities it was never shown (nothing to merge into)', () => {
    const store = new EntityStore();
    store.apply({ added: [], changed: [{ kind: 'player', id: 'ghost', x: 3 }], removed: [{ kind: 'npc', id: 'npc-9' }] }, 0);
    assert.equal(store.count('player'), 0);
  });

  it('glides a step over one tick, and shows a jump of more than two tiles (a teleport) at once', () => {
    const store = new EntityStore();
    store.apply(FIRST, 0);
    store.apply({ added: [], changed: [{ kind: 'player', id: 'c0', x: 101 }], removed: [] }, 1000);
    const ava: Data = store.get('player', 'c0');
    assert.deepEqual(store.position(ava, 1000), { x: 100, z: 100 });
    assert.deepEqual(store.position(ava, 1000 + TICK_MS / 2), { x: 100.5, z: 100 });
    assert.deepEqual(store.position(ava, 1000 + TICK_MS * 2), { x: 101, z: 100 });
    // A new step half-way through the glide starts from where the player is drawn.
    store.apply({ added: [], changed: [{ kind: 'player', id: 'c0', x: 102 }], removed: [] }, 1300);
    assert.deepEqual(store.position(ava, 1300), { x: 100.5, z: 100 });
    store.apply({ added: [], changed: [{ kind: 'player', id: 'c0', x: 150, z: 40 }], removed: [] }, 2000);
    assert.deepEqual(store.position(ava, 2000), { x: 150, z: 40 });
  });

  it('picks people before what lies beneath them, within the radius', () => {
    const store = new EntityStore();
    store.apply({ added: [{ kind: 'groundItem', id: 'g1', itemId: 'bones', x: 96, z: 104 }, ...FIRST.added], changed: [], removed: [] }, 0);
    assert.equal((store.pick(96.2, 104.1, 0) as Data).id, 'npc-3');
    assert.equal((store.pick(96.2, 104.1, 0, { kinds: ['groundItem'] }) as Data).id, 'g1');
    assert.equal(store.pick(98, 104, 0), undefined);
    store.apply({ added: [{ kind: 'player', id: 'me', name: 'Me', x: 96, z: 104 }], changed: [], removed: [] }, 0);
    assert.equal((store.pick(96, 104, 0) as Data).id, 'me');
    assert.equal((store.pick(96, 104, 0, { except: 'me' }) as Data).id, 'npc-3', 'the player itself can be passed over');
    assert.deepEqual(store.pickAll(96, 104, 0, { except: 'me' }).map((e: Data) => e.id), ['npc-3', 'g1'], 'a right click lists everything there');
  });
});
