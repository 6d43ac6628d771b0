/** Names stay readable where entities crowd (the play page and the operator's world map). */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { placeLabels } from '../../src/web/shared/labels.js';

type Box = { left: number; top: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
const label = (key: string, text: string, x: number, y: number) => ({ key, text, x, y, width: 40, height: 12 });

describe('shared: label placement', () => {
  it('stacks the names of people on one tile, then folds the rest into "+N more"', () => {
    const names = ['Ava', 'Bo', 'Cy', 'Di', 'Ed', 'Fay'];
    const { placed, hidden } = placeLabels(names.map((n) => label('5,5', n, 100, 100)), { maxPerGroup: 4 });
    assert.deepEqual(placed.map((p) => p.text), ['Ava', 'Bo', 'Cy', '+3 more']);
    assert.equal(placed[3].folded, 3);
    assert.equal(hidden, 0);
    assert.deepEqual(placed.map((p) => p.top), [88, 75, 62, 49], 'each one line above the one before');
  });

  it('keeps a group of exactly maxPerGroup whole', () => {
    const { placed } = placeLabels(['A', 'B', 'C', 'D'].map((n) => label('1,1', n, 0, 50)), { maxPerGroup: 4 });
    assert.deepEqual(placed.map((p) => p.text), ['A', 'B', 'C', 'D']);
  });

  it('lifts a neighbour\'s name clear of one already placed; one with no room within maxLift is hidden', () => {
    const { placed, hidden } = placeLabels([label('a', 'First', 100, 100), label('b', 'Second', 110, 100), label('c', 'Third', 105, 100)], { maxLift: 13 });
    assert.deepEqual(placed.map((p) => p.text), ['First', 'Second']);
    assert.equal(placed[1].top, 88 - 13);
    assert.equal(hidden, 1);
  });

  it('never lets two shown labels overlap (property)', () => {
    const point = fc.record({ x: fc.integer({ min: 0, max: 300 }), y: fc.integer({ min: 0, max: 300 }), tile: fc.integer({ min: 0, max: 8 }), width: fc.integer({ min: 10, max: 90 }) });
    fc.assert(fc.property(fc.array(point, { maxLength: 60 }), (points) => {
      const { placed, hidden } = placeLabels(points.map((p, i) => ({ key: `t${p.tile}:${p.x}`, text: `n${i}`, x: p.x, y: p.y, width: p.width, height: 12 })));
      for (let i = 0; i < placed.length; i++) for (let j = i + 1; j < placed.length; j++) assert.ok(!overlap(placed[i], placed[j]), `${placed[i].text} / ${placed[j].text}`);
      const shown = placed.reduce((sum, p) => sum + (p.folded || 1), 0);
      assert.equal(shown + hidden, points.length, 'every name is shown, folded into a "+N more" line, or counted hidden');
    }), { numRuns: 200 });
  });
});
