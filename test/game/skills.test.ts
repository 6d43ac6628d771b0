import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  MAX_LEVEL,
  MAX_XP,
  SKILLS,
  combatLevel,
  describeUnmet,
  levelForXp,
  startingLevels,
  unmetRequirements,
  xpForLevel,
  type Levels,
} from '../../src/game/skills.ts';
import { MAX_XP_TENTHS, addTenths, tenthsOf } from '../../src/game/experience.ts';

const all = (level: number): Levels => Object.fromEntries(SKILLS.map((s) => [s, level])) as Levels;

describe('skills', () => {
  it('uses the classic experience curve', () => {
    assert.equal(xpForLevel(1), 0);
    assert.equal(xpForLevel(2), 83);
    assert.equal(xpForLevel(10), 1154);
    assert.equal(xpForLevel(99), 13_034_431);
    assert.equal(levelForXp(1153), 9);
    assert.equal(levelForXp(1154), 10);
    assert.equal(levelForXp(MAX_XP), MAX_LEVEL);
  });

  it('starts every skill at 1 except constitution at 10', () => {
    const levels = startingLevels();
    assert.equal(levels.constitution, 10);
    assert.ok(SKILLS.filter((s) => s !== 'constitution').every((s) => levels[s] === 1));
  });

  it('adds XP up to 200 million and ignores nonsense gains (counted in tenths)', () => {
    assert.equal(addTenths(1000, tenthsOf(4.5)), 1045);
    assert.equal(addTenths(MAX_XP_TENTHS - 10, 100), MAX_XP_TENTHS);
    assert.equal(MAX_XP_TENTHS, MAX_XP * 10);
    for (const bad of [-5, 0, Number.NaN, Infinity, 4.5]) assert.equal(addTenths(1000, bad), 1000);
  });

  describe('combat level', () => {
    it('is 3 for a new character (constitution 10, everything else 1), as the spec says', () => {
      assert.equal(combatLevel(startingLevels()), 3);
    });

    it('matches worked examples of the formula', () => {
      // base 0.25 × (99 + 99 + 49) = 61.75; melee 0.325 × 198 = 64.35 → 126
      assert.equal(combatLevel(all(99)), 126);
      // base 0.25 × (1 + 10 + 0) = 2.75; ranged 0.325 × floor(99 × 1.5) = 48.1 → 50
      assert.equal(combatLevel({ ...startingLevels(), ranged: 99 }), 50);
      // base 0.25 × (40 + 40 + 21) = 25.25; melee 0.325 × 100 = 32.5 → 57
      assert.equal(combatLevel({ ...startingLevels(), attack: 60, strength: 40, defense: 40, constitution: 40, prayer: 43 }), 57);
      // Magic counts like ranged: 0.325 × floor(40 × 1.5) = 19.5 beats melee 0.65; 2.75 + 19.5 → 22
      assert.equal(combatLevel({ ...startingLevels(), magic: 40 }), 22);
      // The warrior template (attack, strength, defense 5): 0.25 × 15 + 0.325 × 10 = 7.0 → 7
      assert.equal(combatLevel({ ...startingLevels(), attack: 5, strength: 5, defense: 5 }), 7);
    });

    it('stays between 3 and 126 and never falls when a level rises', () => {
      const level = fc.integer({ min: 1, max: 99 });
      const levels = fc.record({ attack: level, strength: level, defense: level, constitution: fc.integer({ min: 10, max: 99 }), ranged: level, magic: level, prayer: level });
      fc.assert(
        fc.property(levels, fc.constantFrom('attack', 'strength', 'defense', 'constitution', 'ranged', 'magic', 'prayer' as const), (l, skill) => {
          const c = combatLevel(l);
          assert.ok(c >= 3 && c <= 126);
          if (l[skill] < 99) assert.ok(combatLevel({ ...l, [skill]: l[skill] + 1 }) >= c);
        }),
      );
    });
  });

  it('lists unmet requirements', () => {
    const unmet = unmetRequirements({ attack: 10, ranged: 1 }, startingLevels());
    assert.deepEqual(unmet, [{ skill: 'attack', required: 10, level: 1 }]);
    assert.equal(describeUnmet(unmet), 'attack 10 (you have 1)');
  });
});
