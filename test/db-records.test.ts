import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Database } from '../src/db/database.ts';
import {
  Character, EquipmentSlot, FriendRequest, Friendship, IgnoreEntry, InventorySlot, Item, NpcKill,
  PlayerDeath, PlayerSession, TradeAudit, User, WorldChunk,
} from '../src/db/entities/index.ts';
import { SKILLS, xpForLevel } from '../src/game/skills.ts';
import { openTestDatabase, uniqueName } from './helpers/database.ts';
import { databaseUnderTest } from './helpers/server.ts';

/** The character record table of the spec: field → default. */
const SPEC_CHARACTER_DEFAULTS = {
  combatLevel: 3, attackLevel: 1, strengthLevel: 1, defenseLevel: 1, constitutionLevel: 10, rangedLevel: 1,
  woodcuttingLevel: 1, fishingLevel: 1, firemakingLevel: 1, cookingLevel: 1, health: 100, coins: 0,
  positionX: 0, positionY: 10, positionZ: 0,
};

describe(`database records on ${databaseUnderTest()} @db`, () => {
  let db: Database;
  let user: User;
  let character: Character;
  let other: Character;

  before(async () => {
    db = await openTestDatabase();
    const em = db.em.fork();
    user = em.create(User, { id: randomUUID(), displayName: 'Tester' });
    character = em.create(Character, { id: randomUUID(), accountId: user.id, name: uniqueName('c') });
    other = em.create(Character, { id: randomUUID(), accountId: user.id, name: uniqueName('o') });
    await em.flush();
  });
  after(() => db?.close());

  it('a character inserted with only id, account and name has exactly the spec defaults', async () => {
    const id = randomUUID();
    const name = uniqueName('d');
    await db.em.getConnection().execute('insert into characters (id, account_id, name, created_at) values (?, ?, ?, now())', [id, user.id, name]);
    const [row] = await db.em.getConnection().execute('select * from characters where id = ?', [id]);
    for (const [field, value] of Object.entries(SPEC_CHARACTER_DEFAULTS)) {
      const column = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      assert.equal(Number(row[column]), value, column);
    }
    assert.equal(row.account_id, user.id);
    assert.equal(row.name, name);
  });

  it('every skill has a level and an experience column; constitution starts at level 10 with its experience', async () => {
    const loaded = await db.em.fork().findOneOrFail(Character, character.id);
    for (const skill of SKILLS) {
      const level = (loaded as unknown as Record<string, number>)[`${skill}Level`];
      const xp = (loaded as unknown as Record<string, number>)[`${skill}XpTenths`];
      assert.equal(level, skill === 'constitution' ? 10 : 1, `${skill} level`);
      assert.equal(xp, xpForLevel(level) * 10, `${skill} experience (tenths)`);
    }
    assert.equal(loaded.constitutionXpTenths, 11540);
  });

  it('the inventory refuses a slot outside 0–27, a quantity below 1 and a second row in one slot', async () => {
    const insert = (slot: number, quantity: number) => db.em.getConnection().execute(
      'insert into inventory (character_id, slot, item_id, quantity) values (?, ?, ?, ?)', [other.id, slot, 'coins', quantity]);
    await insert(27, 1);
    await assert.rejects(insert(28, 1));
    await assert.rejects(insert(-1, 1));
    await assert.rejects(insert(3, 0));
    await assert.rejects(insert(27, 5));
  });

  it('equipment holds one item per slot type', async () => {
    const insert = () => db.em.getConnection().execute(
      'insert into equipment (character_id, slot_type, item_id, quantity) values (?, ?, ?, 1)', [other.id, 'head', 'helm']);
    await insert();
    await assert.rejects(insert());
  });

  /** Creates an entity, flushes, reloads it through a fresh entity manager and compares the given fields. */
  async function roundTrip<T extends object>(entity: new () => T, data: Record<string, unknown>, key: Record<string, unknown>): Promise<void> {
    const em = db.em.fork();
    em.create(entity as never, data as never);
    await em.flush();
    const loaded = await db.em.fork().findOneOrFail(entity as never, key as never) as Record<string, unknown>;
    for (const [field, value] of Object.entries(data)) {
      assert.deepEqual(loaded[field], value, `${entity.name}.${field}`);
    }
  }

  const now = () => new Date(Math.floor(Date.now() / 1000) * 1000);

  it('round-trips every record', async () => {
    const userId = randomUUID();
    await roundTrip(User, { id: userId, displayName: 'Round Trip', idpSubject: `idp|${userId}`, roles: ['player'],
      socialIds: { discord: '42' }, isTemporary: true, expiresAt: now() }, { id: userId });
    const characterId = randomUUID();
    const name = uniqueName('r');
    await roundTrip(Character, { id: characterId, accountId: userId, name, coins: 250, positionX: 12.5,
      positionZ: -3.25, miningLevel: 5, miningXpTenths: xpForLevel(5) * 10 }, { id: characterId });
    const itemId = `item-${randomUUID()}`;
    await roundTrip(Item, { id: itemId, name: 'Bronze axe', value: 16, stackable: false, tradeable: true,
      definition: { slot: 'weapon', bonuses: { attack: 2 } } }, { id: itemId });
    await roundTrip(InventorySlot, { characterId, slot: 0, itemId: 'coins', quantity: 2_147_483_647,
      metadata: { note: 'stack' } }, { characterId, slot: 0 });
    await roundTrip(EquipmentSlot, { characterId, slotType: 'weapon', itemId, quantity: 1, metadata: null },
      { characterId, slotType: 'weapon' });
    const chunkX = Math.floor(Math.random() * 1e9);
    await roundTrip(WorldChunk, { chunkX, chunkZ: -7, data: { placed: [{ id: 'fire', x: 1, z: 2 }] } }, { chunkX, chunkZ: -7 });
    const sessionId = randomUUID();
    await roundTrip(PlayerSession, { id: sessionId, characterId, accountId: userId, startedAt: now(), endedAt: now(),
      reason: 'logout', playtimeSeconds: 61 }, { id: sessionId });
    const deathId = randomUUID();
    await roundTrip(PlayerDeath, { id: deathId, characterId, positionX: 1, positionY: 10, positionZ: 2,
      items: [{ itemId: 'coins', quantity: 5, metadata: null }], status: 'locked', createdAt: now(), expiresAt: now() },
    { id: deathId });
    await roundTrip(NpcKill, { characterId, npcId: 'goblin', killCount: 3, lastKillAt: now() }, { characterId, npcId: 'goblin' });
    await roundTrip(Friendship, { characterId, friendId: other.id, createdAt: now() }, { characterId, friendId: other.id });
    await roundTrip(FriendRequest, { fromCharacterId: characterId, toCharacterId: character.id, createdAt: now() },
      { fromCharacterId: characterId, toCharacterId: character.id });
    await roundTrip(IgnoreEntry, { accountId: userId, ignoredCharacterId: other.id, createdAt: now() },
      { accountId: userId, ignoredCharacterId: other.id });
    const tradeId = randomUUID();
    await roundTrip(TradeAudit, { id: tradeId, initiatorId: characterId, partnerId: other.id, status: 'completed',
      reason: null, initiatorItems: [{ itemId: 'coins', quantity: 10 }], partnerItems: [], startedAt: now(), endedAt: now() },
    { id: tradeId });
  });

  it('friendships and friend requests refuse a player befriending itself', async () => {
    const em = db.em.fork();
    em.create(Friendship, { characterId: character.id, friendId: character.id });
    await assert.rejects(em.flush());
  });
});
