/** The walked path as the play page shows it (player:path, then positions from world:update). */
import assert from 'node:assert/strict';
import { PathDisplay } from '../../src/web/play/lib/path-display.js';

describe('play page: the path display', () => {
  it('shows the clicked tile until the server answers, then the tiles ahead, trimmed as the player walks', () => {
    const path = new PathDisplay();
    path.requested(103, 101);
    assert.deepEqual(path.destination, { x: 103, z: 101 });
    path.accepted({ x: 100, z: 100, running: false, path: [{ x: 101, z: 100 }, { x: 102, z: 101 }, { x: 103, z: 101 }] });
    assert.equal(path.pending, undefined);
    assert.equal(path.tiles.length, 3);
    assert.equal(path.ticksLeft, 3);
    path.trim(101, 100);
    assert.deepEqual(path.tiles, [{ x: 102, z: 101 }, { x: 103, z: 101 }]);
    path.trim(50, 50);
    assert.equal(path.tiles.length, 2, 'a position on no tile of the path changes nothing');
    path.trim(103, 101);
    assert.deepEqual(path.tiles, []);
    assert.equal(path.destination, undefined);
  });

  it('running skips a tile per tick; a cancel (empty path) and a refusal clear it', () => {
    const path = new PathDisplay();
    path.accepted({ x: 0, z: 0, running: true, path: [{ x: 1, z: 0 }, { x: 2, z: 0 }, { x: 3, z: 0 }, { x: 4, z: 0 }, { x: 5, z: 0 }] });
    assert.equal(path.ticksLeft, 3);
    path.trim(2, 0);
    assert.deepEqual(path.tiles.map((t) => t.x), [3, 4, 5]);
    path.accepted({ x: 2, z: 0, running: false, path: [] });
    assert.deepEqual(path.tiles, []);
    path.requested(9, 9);
    path.refused();
    assert.equal(path.destination, undefined);
  });

  it('an answer that starts where the player already is drops that tile', () => {
    const path = new PathDisplay();
    path.accepted({ x: 5, z: 5, running: false, path: [{ x: 5, z: 5 }, { x: 6, z: 5 }] });
    assert.deepEqual(path.tiles, [{ x: 6, z: 5 }]);
  });
});
