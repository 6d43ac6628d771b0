import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  CONSTITUTION_XP_THIRDS_PER_DAMAGE,
  attackInterval,
  attackRange,
  canAttackPlayer,
  checkAmmunition,
  consumeAmmunition,
  effectiveLevel,
  hitChance,
  maxHit,
  maxHitpoints,
  meleeAttackType,
  npcAttack,
  playerAttack,
  playerRetaliates,
  regenerate,
  rollDamage,
  shouldAggress,
  shouldRetaliate,
  styleEffect,
  xpForDamage,
  type PlayerFighter,
} from '../../src/game/combat.ts';
import { emptyEquipment, type Equipment } from '../../src/game/equipment.ts';
import { NO_PRAYER_BOOSTS, prayerBoosts } from '../../src/game/prayer.ts';
import { startingLevels } from '../../src/game/skills.ts';
import { EquipmentBonuses } from '../../src/manifests/schemas/items.ts';
import { NpcCombat } from '../../src/manifests/schemas/npcs.ts';
import type { Ammunition } from '../../src/manifests/schemas/skilling.ts';
import { bundledData } from './support/bundled-data.ts';
import { ITEMS } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

const AMMO = new Map<string, Ammunition>([
  ['arrows', { itemId: 'arrows', rangedLevel: 1, rangedStrength: 7, weaponIds: ['bow'] }],
  ['iron_arrows', { itemId: 'iron_arrows', rangedLevel: 10, rangedStrength: 10, weaponIds: ['bow'] }],
]);
const DATA = { items: ITEMS, ammunition: AMMO };
const CHICKEN = NpcCombat.parse({ level: 1, hitpoints: 3, attack: 1, strength: 1, defense: 1, maxHit: 1, attackSpeed: 4, respawnTicks: 25 });
const BANDIT = NpcCombat.parse({ level: 20, hitpoints: 30, attack: 18, strength: 18, defense: 15, maxHit: 4, attackSpeed: 4, aggressive: true, respawnTicks: 50 });

/** An rng that returns the given numbers in turn. */
function scripted(...values: number[]): () => number {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error('rng called too often');
    return values[i++];
  };
}

function gear(equipment: Partial<Equipment>): Equipment {
  return { ...emptyEquipment(), ...equipment };
}

const swordsman: PlayerFighter = { levels: startingLevels(), equipment: gear({ weapon: { itemId: 'sword', quantity: 1 } }), style: 'accurate' };
const archer: PlayerFighter = {
  levels: { ...startingLevels(), ranged: 10 },
  equipment: gear({ weapon: { itemId: 'bow', quantity: 1 }, ammunition: { itemId: 'arrows', quantity: 2 } }),
  style: 'accurate',
};

describe('combat', () => {
  describe('formulas', () => {
    it('effective level = floor(level × prayer) + style boost + 8', () => {
      assert.equal(effectiveLevel(1, 1, 3), 12);
      assert.equal(effectiveLevel(40, 1.1, 3), 55);
      assert.equal(effectiveLevel(99, 1.05, 0), 111);
    });

    it('hit chance: both branches, always between 0 and 1, rising with the attack roll', () => {
      assert.equal(hitChance(828, 640), 1 - 642 / (2 * 829));
      assert.equal(hitChance(640, 828), 640 / (2 * 829));
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 1, max: 1000 }), (a, d, more) => {
          const c = hitChance(a, d);
          assert.ok(c >= 0 && c <= 1);
          assert.ok(hitChance(a + more, d) >= c);
        }),
      );
    });

    it('max hit = floor(0.5 + effective strength × (bonus + 64) / 640)', () => {
      assert.equal(maxHit(9, 5), 1);
      assert.equal(maxHit(21, 5), 2);
      assert.equal(maxHit(118, 80), 27);
    });

    it('damage: a miss deals 0; a hit deals 0..max uniformly from the injected rng', () => {
      assert.deepEqual(rollDamage(0.5, 10, scripted(0.7)), { hit: false, damage: 0 });
      assert.deepEqual(rollDamage(0.5, 10, scripted(0.2, 0.0)), { hit: true, damage: 0 });
      assert.deepEqual(rollDamage(0.5, 10, scripted(0.2, 0.999999)), { hit: true, damage: 10 });
      assert.deepEqual(rollDamage(1, 10, scripted(0.99, 0.55)), { hit: true, damage: 6 });
    });

    it('chooses the melee attack type from the best attack bonus', () => {
      const b = EquipmentBonuses.parse({ attackStab: 4, attackSlash: 5, attackCrush: -2 });
      assert.equal(meleeAttackType(b), 'slash');
      assert.equal(meleeAttackType(EquipmentBonuses.parse({})), 'stab');
      assert.equal(meleeAttackType(EquipmentBonuses.parse({ attackCrush: 1 })), 'crush');
    });
  });

  describe('styles and XP', () => {
    it('has four melee and three ranged styles with their boosts', () => {
      assert.deepEqual(expectOk(styleEffect('melee', 'aggressive')).boosts, { strength: 3 });
      assert.deepEqual(expectOk(styleEffect('melee', 'controlled')).boosts, { attack: 1, strength: 1, defense: 1 });
      assert.deepEqual(expectOk(styleEffect('ranged', 'longrange')).boosts, { defense: 3 });
      expectCode(styleEffect('ranged', 'aggressive'), 'INVALID_STYLE');
      expectCode(styleEffect('melee', 'rapid'), 'INVALID_STYLE');
      expectCode(styleEffect('melee', 'toString' as never), 'INVALID_STYLE');
    });

    it('gives 4 XP per damage to the style skill and 4/3 to constitution (counted in thirds of a tenth: 30 a point)', () => {
      const points = (thirds: Partial<Record<string, number>>) => Object.fromEntries(Object.entries(thirds).map(([skill, n]) => [skill, n! / 30]));
      assert.deepEqual(points(xpForDamage(expectOk(styleEffect('melee', 'aggressive')), 3)), { strength: 12, constitution: 4 });
      const controlled = xpForDamage(expectOk(styleEffect('melee', 'controlled')), 3);
      assert.deepEqual(points(controlled), { attack: 4, strength: 4, defense: 4, constitution: 4 });
      assert.deepEqual(points(xpForDamage(expectOk(styleEffect('ranged', 'longrange')), 5)), { ranged: 10, defense: 10, constitution: (5 * CONSTITUTION_XP_THIRDS_PER_DAMAGE) / 30 });
      assert.equal(CONSTITUTION_XP_THIRDS_PER_DAMAGE / 30, 4 / 3);
      assert.deepEqual(xpForDamage(expectOk(styleEffect('ranged', 'rapid')), 0), {});
    });

    it('rapid is one tick faster; longrange reaches two tiles further', () => {
      assert.equal(attackInterval(ITEMS.get('bow'), 'rapid'), 3);
      assert.equal(attackInterval(ITEMS.get('bow'), 'accurate'), 4);
      assert.equal(attackInterval(ITEMS.get('greatsword'), 'aggressive'), 7);
      assert.equal(attackInterval(undefined, 'accurate'), 4);
      assert.equal(attackRange(ITEMS.get('sword'), 'accurate'), 1);
      assert.equal(attackRange(ITEMS.get('bow'), 'longrange'), 9);
    });
  });

  describe('player attacks', () => {
    it('melee against an NPC: accuracy and max hit from levels, style and bonuses', () => {
      const outcome = expectOk(playerAttack(swordsman, { kind: 'npc', combat: CHICKEN, hitpoints: 3 }, DATA, scripted(0.1, 0.99)));
      // effective attack 12 × (slash 5 + 64) = 828 against (1 + 9) × 64 = 640.
      assert.equal(outcome.hitChance, 1 - 642 / 1658);
      assert.equal(outcome.maxHit, 1);
      assert.equal(outcome.attackType, 'slash');
      assert.deepEqual(outcome, { ...outcome, hit: true, damage: 1, xpThirds: { attack: 4 * 30, constitution: 40 } });
    });

    it('caps damage at the defender’s hitpoints (and XP with it)', () => {
      const strong: PlayerFighter = { ...swordsman, levels: { ...startingLevels(), strength: 60 }, style: 'aggressive' };
      const outcome = expectOk(playerAttack(strong, { kind: 'npc', combat: CHICKEN, hitpoints: 2 }, DATA, scripted(0, 0.99)));
      assert.ok(outcome.maxHit > 2);
      assert.equal(outcome.damage, 2);
      assert.equal(outcome.xpThirds.strength, 8 * 30);
    });

    it('prayers raise accuracy and max hit', () => {
      const prayers = new Map([
        ['hawk', { id: 'hawk', name: 'Hawk', description: 'x', level: 1, drainPerMinute: 1, group: 'attack' as const, effects: { attackPercent: 10, strengthPercent: 0, defensePercent: 0, rangedPercent: 0, magicPercent: 0 } }],
        ['iron', { id: 'iron', name: 'Iron', description: 'x', level: 1, drainPerMinute: 1, group: 'strength' as const, effects: { attackPercent: 0, strengthPercent: 10, defensePercent: 0, rangedPercent: 0, magicPercent: 0 } }],
      ]);
      const base: PlayerFighter = { ...swordsman, levels: { ...startingLevels(), attack: 60, strength: 60 } };
      const plain = expectOk(playerAttack(base, { kind: 'npc', combat: BANDIT, hitpoints: 30 }, DATA, scripted(0.99)));
      const prayed = expectOk(playerAttack({ ...base, prayer: prayerBoosts(['hawk', 'iron'], prayers) }, { kind: 'npc', combat: BANDIT, hitpoints: 30 }, DATA, scripted(0.99)));
      assert.ok(prayed.hitChance > plain.hitChance);
      assert.ok(prayed.maxHit > plain.maxHit);
    });

    it('ranged needs fitting ammunition and uses one per shot, hit or miss', () => {
      const miss = expectOk(playerAttack(archer, { kind: 'npc', combat: CHICKEN, hitpoints: 3 }, DATA, scripted(0.999)));
      assert.equal(miss.hit, false);
      assert.equal(miss.attackType, 'ranged');
      assert.equal(miss.equipment.ammunition?.quantity, 1);
      // effective ranged 10 + 3 + 8 = 21, arrow strength 7 from ammunition.json → floor(0.5 + 21 × 71 / 640) = 2.
      assert.equal(miss.maxHit, 2);
      const last = consumeAmmunition(miss.equipment);
      assert.equal(last.ammunition, null);
      expectCode(playerAttack({ ...archer, equipment: last }, { kind: 'npc', combat: CHICKEN, hitpoints: 3 }, DATA, scripted()), 'NO_AMMO');
      const wrong = gear({ weapon: { itemId: 'bow', quantity: 1 }, ammunition: { itemId: 'feather', quantity: 5 } });
      expectCode(playerAttack({ ...archer, equipment: wrong }, { kind: 'npc', combat: CHICKEN, hitpoints: 3 }, DATA, scripted()), 'WRONG_AMMO');
      const iron = gear({ weapon: { itemId: 'bow', quantity: 1 }, ammunition: { itemId: 'iron_arrows', quantity: 5 } });
      expectCode(checkAmmunition(iron, AMMO, 9), 'AMMO_LEVEL_TOO_LOW');
      assert.ok(checkAmmunition(iron, AMMO, 10).ok);
      expectCode(playerAttack({ ...archer, style: 'aggressive' }, { kind: 'npc', combat: CHICKEN, hitpoints: 3 }, DATA, scripted()), 'INVALID_STYLE');
    });

    it('arrows worn with a melee weapon are not used', () => {
      const outcome = expectOk(playerAttack({ ...swordsman, equipment: { ...swordsman.equipment, ammunition: { itemId: 'arrows', quantity: 3 } } }, { kind: 'npc', combat: CHICKEN, hitpoints: 3 }, DATA, scripted(0.99)));
      assert.equal(outcome.equipment.ammunition?.quantity, 3);
    });

    it('against a player: defence bonuses count and protection prayers remove 40 %', () => {
      const target: PlayerFighter = { levels: { ...startingLevels(), defense: 40 }, equipment: gear({ shield: { itemId: 'shield', quantity: 1 } }), style: 'defensive' };
      const strong: PlayerFighter = { ...swordsman, levels: { ...startingLevels(), strength: 99, attack: 99 }, style: 'aggressive' };
      const open = expectOk(playerAttack(strong, { kind: 'player', fighter: target, hitpoints: 99 }, DATA, scripted(0, 0.999)));
      const guarded = expectOk(playerAttack(strong, { kind: 'player', fighter: { ...target, prayer: { ...NO_PRAYER_BOOSTS, protectFrom: ['melee'] } }, hitpoints: 99 }, DATA, scripted(0, 0.999)));
      assert.equal(guarded.damage, Math.floor(open.damage * 0.6));
      const unarmored = expectOk(playerAttack(strong, { kind: 'player', fighter: { ...target, equipment: emptyEquipment() }, hitpoints: 99 }, DATA, scripted(0.999)));
      assert.ok(unarmored.hitChance > open.hitChance);
    });
  });

  describe('NPC attacks', () => {
    it('roll against the player’s defence; protection blocks all NPC damage', () => {
      const player: PlayerFighter = { levels: startingLevels(), equipment: emptyEquipment(), style: 'accurate' };
      const hit = npcAttack(BANDIT, { fighter: player, hitpoints: 10 }, ITEMS, scripted(0, 0.99));
      assert.deepEqual([hit.hit, hit.damage], [true, 4]);
      const blocked = npcAttack(BANDIT, { fighter: { ...player, prayer: { ...NO_PRAYER_BOOSTS, protectFrom: ['melee'] } }, hitpoints: 10 }, ITEMS, scripted(0, 0.99));
      assert.deepEqual([blocked.hit, blocked.damage], [true, 0]);
      assert.equal(npcAttack(BANDIT, { fighter: player, hitpoints: 2 }, ITEMS, scripted(0, 0.99)).damage, 2);
    });
  });

  describe('decisions', () => {
    const base = { npc: BANDIT, distance: 3, playerCombatLevel: 3, playerInSafeArea: false, playerInCombat: false, npcInCombat: false };

    it('aggressive NPCs attack nearby, weaker, free players outside safe areas', () => {
      assert.equal(shouldAggress(base), true);
      assert.equal(shouldAggress({ ...base, npc: CHICKEN }), false);
      assert.equal(shouldAggress({ ...base, distance: 5 }), false);
      assert.equal(shouldAggress({ ...base, distance: 5, radius: 6 }), true);
      assert.equal(shouldAggress({ ...base, playerCombatLevel: 40 }), true);
      assert.equal(shouldAggress({ ...base, playerCombatLevel: 41 }), false);
      assert.equal(shouldAggress({ ...base, playerInSafeArea: true }), false);
      assert.equal(shouldAggress({ ...base, playerInCombat: true }), false);
      assert.equal(shouldAggress({ ...base, npcInCombat: true }), false);
    });

    it('NPCs retaliate unless busy with someone else; players when auto-retaliate is on and idle', () => {
      assert.equal(shouldRetaliate(null, 'p1'), true);
      assert.equal(shouldRetaliate('p1', 'p1'), true);
      assert.equal(shouldRetaliate('p2', 'p1'), false);
      assert.equal(playerRetaliates(true, null), true);
      assert.equal(playerRetaliates(false, null), false);
      assert.equal(playerRetaliates(true, 'npc-7'), false);
    });

    it('players fight players only in PvP areas, never themselves', () => {
      assert.ok(canAttackPlayer('a', 'b', true, true).ok);
      expectCode(canAttackPlayer('a', 'b', true, false), 'NOT_PVP_AREA');
      expectCode(canAttackPlayer('a', 'a', true, true), 'SELF');
    });
  });

  describe('hitpoints', () => {
    it('a player’s maximum is the constitution level', () => {
      assert.equal(maxHitpoints(startingLevels()), 10);
    });

    it('regenerates one hitpoint per 100 ticks, carrying progress, stopping at the maximum', () => {
      let v = { hitpoints: 5, regenTicks: 0 };
      v = regenerate(v, 10, 99);
      assert.deepEqual(v, { hitpoints: 5, regenTicks: 99 });
      v = regenerate(v, 10, 1);
      assert.deepEqual(v, { hitpoints: 6, regenTicks: 0 });
      assert.deepEqual(regenerate(v, 10, 10_000), { hitpoints: 10, regenTicks: 0 });
      assert.deepEqual(regenerate({ hitpoints: 5, regenTicks: 0 }, 10, 30, 10), { hitpoints: 8, regenTicks: 0 });
      assert.deepEqual(regenerate({ hitpoints: 5, regenTicks: 40 }, 10, 0), { hitpoints: 5, regenTicks: 40 });
    });
  });

  it('fights the bundled NPCs with a bundled bow and arrows', async () => {
    const data = await bundledData();
    const goblin = data.npcsById.get('goblin')!.combat!;
    const ranger: PlayerFighter = {
      levels: { ...startingLevels(), ranged: 5 },
      equipment: gear({ weapon: { itemId: 'oak_shortbow', quantity: 1 }, ammunition: { itemId: 'bronze_arrows', quantity: 10 } }),
      style: 'rapid',
    };
    const outcome = expectOk(playerAttack(ranger, { kind: 'npc', combat: goblin, hitpoints: goblin.hitpoints }, { items: data.itemsById, ammunition: data.ammunitionByItemId }, scripted(0, 0.99)));
    assert.equal(outcome.equipment.ammunition?.quantity, 9);
    assert.ok(outcome.damage >= 1 && outcome.damage <= outcome.maxHit);
  });
});
