/** What a click on the play page's map offers, and walking within reach before acting. */
import assert from 'node:assert/strict';
import { approachTile, optionsFor, REACH } from '../../src/web/play/lib/actions.js';
import { distanceToRect } from '../../src/web/play/lib/camera.js';
import { WalkThenAct } from '../../src/web/play/lib/walk-then-act.js';
import { bundledWorld } from './support/bundled-manifests.ts';

// Payloads and state are read field by field, as a page does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = any;

const world = bundledWorld();
const labels = (options: Array<{ label: string }>) => options.map((o) => o.label);

describe('play page: click options', () => {
  it('offers each kind of thing the events the docs give it, the default first', () => {
    const goblin = { kind: 'npc', id: 'npc-7', npcId: 'goblin', name: 'Goblin', x: 55, z: 45 };
    assert.deepEqual(optionsFor({ type: 'entity', entity: goblin }, { world })[0], { label: 'Attack Goblin', event: 'player:action', data: { action: 'attack', targetId: 'npc-7' } });
    const osric = optionsFor({ type: 'entity', entity: { kind: 'npc', id: 'npc-0', npcId: 'osric', name: 'Osric', x: 109, z: 87 } }, { world });
    assert.ok(labels(osric).includes('Bank with Osric'));
    assert.deepEqual(osric.find((o: { event?: string }) => o.event === 'bank:open')?.near, { kind: 'npc', id: 'npc-0' });
    const mirela = optionsFor({ type: 'entity', entity: { kind: 'npc', id: 'npc-1', npcId: 'mirela', name: 'Mirela', x: 89, z: 86 } }, { world });
    assert.deepEqual(mirela.find((o: { event?: string }) => o.event === 'shop:open')?.data, { storeId: 'brackenford_general_store' });
    const tree = optionsFor({ type: 'entity', entity: { kind: 'resource', id: 'res-0', resourceId: 'tree', x: 70, z: 100 } }, { world });
    assert.deepEqual(tree[0], { label: 'Chop down Tree', event: 'player:action', data: { action: 'gather', targetId: 'res-0' } });
    const player = optionsFor({ type: 'entity', entity: { kind: 'player', id: 'p2', name: 'Bo', x: 100, z: 100 } }, { world, selfId: 'p1' });
    assert.deepEqual(player[0].data, { targetPlayerId: 'p2' });
    assert.ok(!labels(player).some((l: string) => l.startsWith('Attack')), 'no attack outside a PvP area');
    assert.ok(labels(optionsFor({ type: 'entity', entity: { kind: 'player', id: 'p2', name: 'Bo', x: 100, z: 10 } }, { world })).includes('Attack Bo'), 'Ashen Reach is PvP');
    const grave = { kind: 'gravestone', id: 'g', ownerId: 'p1', x: 1, z: 1 };
    assert.equal(optionsFor({ type: 'entity', entity: grave }, { world, selfId: 'p1' })[0].event, 'gravestone:claim');
    assert.notEqual(optionsFor({ type: 'entity', entity: grave }, { world, selfId: 'p9' })[0].event, 'gravestone:claim', 'only its owner claims it');
    assert.deepEqual(optionsFor({ type: 'tile', x: 3, z: 4 }, { world, run: true }), [{ label: 'Walk here', event: 'player:move', data: { x: 3, z: 4, run: true } }]);
    const booth = world.stations.find((s: { type: string }) => s.type === 'bank');
    assert.equal(optionsFor({ type: 'station', station: booth }, { world })[0].event, 'bank:open');
  });

  it('walks to a free tile within reach of a station\'s footprint, nearest the player', () => {
    const booth = world.stations.find((s: { type: string }) => s.type === 'bank');
    const tile = approachTile(world, booth.bounds, REACH, { x: 107, z: 100 });
    assert.ok(tile);
    assert.equal(world.isBlocked(tile.x, tile.z), false);
    assert.ok(distanceToRect(tile, booth.bounds) <= REACH);
  });

  it('walk-then-act: moves first, acts once within reach, walks again after a target that moved, gives up past that', () => {
    const walker = new WalkThenAct();
    const npc = { kind: 'npc', id: 'npc-0', x: 109, z: 87 };
    const lookup = (kind: string, id: string) => (kind === npc.kind && id === npc.id ? npc : undefined);
    const option = { label: 'Bank', event: 'bank:open', data: {}, near: { kind: 'npc', id: 'npc-0' } };
    const first: Data = walker.start(option, { x: 100, z: 100 }, lookup, world, true);
    assert.equal(first.type, 'player:move');
    assert.equal(first.data.run, true);
    assert.equal(walker.check({ x: 104, z: 95 }, true, lookup), undefined, 'on the way');
    npc.x = 112;
    const again: Data = walker.check({ x: 108, z: 89 }, false, lookup);
    assert.equal(again?.type, 'player:move', 'stopped short of a target that moved: walk again');
    assert.deepEqual(walker.check({ x: 110, z: 88 }, true, lookup), { type: 'bank:open', data: {} });
    assert.equal(walker.pending, undefined);
    assert.deepEqual(walker.start(option, { x: 111, z: 88 }, lookup, world), { type: 'bank:open', data: {} }, 'already within reach: at once');
    assert.deepEqual(walker.start({ ...option, near: { kind: 'npc', id: 'gone' } }, { x: 1, z: 1 }, lookup, world), { refusal: 'That is no longer there.' });
  });
});
