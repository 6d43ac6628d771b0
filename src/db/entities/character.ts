import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.ts';

/**
 * The spec's character record (exact fields and defaults) plus level and experience for all 17 skills.
 * Constitution starts at level 10 with the 1,154 experience that level needs.
 */
export const CharacterSchema = defineEntity({
  name: 'Character',
  tableName: 'characters',
  properties: {
    id: p.text().primary(),
    accountId: () => p.manyToOne(User).mapToPk().fieldName('account_id').deleteRule('cascade').index(),
    name: p.text().unique(),
    combatLevel: p.integer().default(3),
    health: p.integer().default(100),
    coins: p.integer().default(0),
    positionX: p.double().$type<number>().default(0),
    positionY: p.double().$type<number>().default(10),
    positionZ: p.double().$type<number>().default(0),

    attackLevel: p.integer().default(1),
    strengthLevel: p.integer().default(1),
    defenseLevel: p.integer().default(1),
    constitutionLevel: p.integer().default(10),
    rangedLevel: p.integer().default(1),
    magicLevel: p.integer().default(1),
    prayerLevel: p.integer().default(1),
    woodcuttingLevel: p.integer().default(1),
    miningLevel: p.integer().default(1),
    fishingLevel: p.integer().default(1),
    firemakingLevel: p.integer().default(1),
    cookingLevel: p.integer().default(1),
    smithingLevel: p.integer().default(1),
    agilityLevel: p.integer().default(1),
    craftingLevel: p.integer().default(1),
    fletchingLevel: p.integer().default(1),
    runecraftingLevel: p.integer().default(1),

    /** Experience in tenths of a point, as the world counts it (src/game/experience.ts). */
    attackXpTenths: p.integer().default(0),
    strengthXpTenths: p.integer().default(0),
    defenseXpTenths: p.integer().default(0),
    constitutionXpTenths: p.integer().default(11540),
    rangedXpTenths: p.integer().default(0),
    magicXpTenths: p.integer().default(0),
    prayerXpTenths: p.integer().default(0),
    woodcuttingXpTenths: p.integer().default(0),
    miningXpTenths: p.integer().default(0),
    fishingXpTenths: p.integer().default(0),
    firemakingXpTenths: p.integer().default(0),
    cookingXpTenths: p.integer().default(0),
    smithingXpTenths: p.integer().default(0),
    agilityXpTenths: p.integer().default(0),
    craftingXpTenths: p.integer().default(0),
    fletchingXpTenths: p.integer().default(0),
    runecraftingXpTenths: p.integer().default(0),
    /** Prayer points left; null is full (the prayer level). */
    prayerPoints: p.integer().nullable(),
    /** Run energy in hundredths of a percent (src/game/run-energy.ts). */
    runEnergy: p.integer().default(10000),

    /** Quest points earned (added in the transaction that completes a quest). */
    questPoints: p.integer().default(0),

    createdAt: p.datetime().onCreate(() => new Date()),
    lastLoginAt: p.datetime().nullable(),
  },
});
export class Character extends CharacterSchema.class {}
CharacterSchema.setClass(Character);
