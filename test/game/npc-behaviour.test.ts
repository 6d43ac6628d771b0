import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HEALTH_SCALE } from '../../src/game/constants.ts';
import { DEFAULT_REGEN_TICKS } from '../../src/game/combat.ts';
import {
  IN_COMBAT_TICKS, LEASH_TILES, chaseStep, losesTarget, npcBusy, npcMove, pickAggressionTarget, regenerateHealth, retaliation,
  type AggressionCandidate, type NpcFightState,
} from '../../src/game/npc-behaviour.ts';
import { NpcCombat } from '../../src/manifests/schemas/npcs.ts';

const BANDIT = NpcCombat.parse({ level: 20, hitpoints: 30, attack: 18, strength: 18, defense: 15, maxHit: 4, attackSpeed: 4, aggressive: true, respawnTicks: 50 });
const CHICKEN = NpcCombat.parse({ level: 1, hitpoints: 3, attack: 1, strength: 1, defense: 1, maxHit: 1, attackSpeed: 4, respawnTicks: 25 });

const SPAWN = { x: 20, z: 20 };
const idle: NpcFightState & { nextAttackTick: number } = {
  at: SPAWN, spawn: SPAWN, wanderRadius: 2, dead: false, targetId: null, lastHitTick: -Infinity, nextAttackTick: 0,
};
const open = () => false;

function candidate(id: string, over: Partial<AggressionCandidate> = {}): AggressionCandidate {
  return { id, at: { x: SPAWN.x + 1, z: SPAWN.z }, combatLevel: 3, inSafeArea: false, inCombat: false, ...over };
}

describe('NPC behaviour', () => {
  it('an NPC is busy while dead, fighting, lately hit or outside its wander area', () => {
    assert.equal(npcBusy(idle, 100), false);
    assert.equal(npcBusy({ ...idle, dead: true }, 100), true);
    assert.equal(npcBusy({ ...idle, targetId: 'p1' }, 100), true);
    assert.equal(npcBusy({ ...idle, lastHitTick: 100 - IN_COMBAT_TICKS + 1 }, 100), true);
    assert.equal(npcBusy({ ...idle, lastHitTick: 100 - IN_COMBAT_TICKS }, 100), false);
    assert.equal(npcBusy({ ...idle, at: { x: SPAWN.x + 3, z: SPAWN.z } }, 100), true);
  });

  it('an aggressive NPC picks the first player it may attack, skipping safe, fighting and much stronger ones', () => {
    const candidates = [
      candidate('safe', { inSafeArea: true }),
      candidate('busy', { inCombat: true }),
      candidate('strong', { combatLevel: BANDIT.level * 2 + 1 }),
      candidate('far', { at: { x: SPAWN.x + 5, z: SPAWN.z } }),
      candidate('first'),
      candidate('second'),
    ];
    assert.equal(pickAggressionTarget(BANDIT, SPAWN, candidates), 'first');
    assert.equal(pickAggressionTarget(BANDIT, SPAWN, candidates.slice(0, 4)), null);
    assert.equal(pickAggressionTarget(CHICKEN, SPAWN, candidates), null, 'a peaceful NPC never picks');
  });

  it('an NPC without a target fights back; one with a target keeps it', () => {
    assert.deepEqual(retaliation({ targetId: null, nextAttackTick: 0 }, 'p1', 10), { targetId: 'p1', nextAttackTick: 11 });
    assert.deepEqual(retaliation({ targetId: null, nextAttackTick: 30 }, 'p1', 10), { targetId: 'p1', nextAttackTick: 30 });
    assert.deepEqual(retaliation({ targetId: 'p2', nextAttackTick: 12 }, 'p1', 10), { targetId: 'p2', nextAttackTick: 12 });
  });

  it('gives up a target that is gone, dying or led beyond the leash', () => {
    assert.equal(losesTarget(undefined, false, SPAWN), true);
    assert.equal(losesTarget({ x: 21, z: 20 }, true, SPAWN), true);
    assert.equal(losesTarget({ x: SPAWN.x + LEASH_TILES + 2, z: 20 }, false, SPAWN), false);
    assert.equal(losesTarget({ x: SPAWN.x + LEASH_TILES + 3, z: 20 }, false, SPAWN), true);
  });

  it('walks home, chases, waits for its next swing or attacks', () => {
    assert.deepEqual(npcMove(idle, undefined, 5), { kind: 'idle' });
    assert.deepEqual(npcMove({ ...idle, at: { x: 25, z: 20 } }, undefined, 5), { kind: 'home' });
    const fighting = { ...idle, targetId: 'p1', nextAttackTick: 8 };
    assert.deepEqual(npcMove(fighting, { x: 23, z: 20 }, 5), { kind: 'chase', toward: { x: 23, z: 20 } });
    assert.deepEqual(npcMove(fighting, { x: 21, z: 21 }, 5), { kind: 'wait' });
    assert.deepEqual(npcMove(fighting, { x: 21, z: 21 }, 8), { kind: 'attack' });
  });

  it('chases diagonally first, around blocked tiles, and never beyond the leash', () => {
    assert.deepEqual(chaseStep({ x: 0, z: 0 }, { x: 3, z: 3 }, { x: 0, z: 0 }, open), { x: 1, z: 1 });
    assert.deepEqual(chaseStep({ x: 0, z: 0 }, { x: 3, z: 3 }, { x: 0, z: 0 }, (x, z) => x === 1 && z === 1), { x: 1, z: 0 });
    assert.deepEqual(chaseStep({ x: 0, z: 0 }, { x: 3, z: 0 }, { x: 0, z: 0 }, (x) => x === 1), null);
    assert.equal(chaseStep({ x: LEASH_TILES, z: 0 }, { x: LEASH_TILES + 5, z: 0 }, { x: 0, z: 0 }, open), null);
    assert.deepEqual(chaseStep({ x: 4, z: 4 }, { x: 4, z: 4 }, { x: 0, z: 0 }, open), null, 'already there');
  });

  it('a chase step is always one tile, free and within the leash', () => {
    const tile = fc.record({ x: fc.integer({ min: -20, max: 20 }), z: fc.integer({ min: -20, max: 20 }) });
    fc.assert(fc.property(tile, tile, fc.integer({ min: 0, max: 1000 }), (at, toward, seed) => {
      const blocked = (x: number, z: number) => ((x * 31 + z * 17 + seed) % 5) === 0;
      const step = chaseStep(at, toward, { x: 0, z: 0 }, blocked);
      if (step === null) return;
      assert.equal(Math.max(Math.abs(step.x - at.x), Math.abs(step.z - at.z)), 1);
      assert.equal(blocked(step.x, step.z), false);
      assert.ok(Math.max(Math.abs(step.x), Math.abs(step.z)) <= LEASH_TILES);
    }));
  });

  it('a wounded player regains one world health point per tenth of the level-scale interval', () => {
    const interval = DEFAULT_REGEN_TICKS / HEALTH_SCALE;
    let state = { health: 50, regenTicks: 0 };
    for (let i = 0; i < interval - 1; i++) state = regenerateHealth(state.health, 100, state.regenTicks);
    assert.equal(state.health, 50);
    state = regenerateHealth(state.health, 100, state.regenTicks);
    assert.deepEqual(state, { health: 51, regenTicks: 0 });
    assert.deepEqual(regenerateHealth(100, 100, 3), { health: 100, regenTicks: 0 });
  });
});
