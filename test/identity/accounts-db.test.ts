import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { assertMayActAs, assertOwnsCharacter, createTemporaryUser, deleteExpiredTemporaryUsers, findOrCreateIdpUser } from '../../src/auth/accounts.ts';
import { AuthError } from '../../src/auth/errors.ts';
import type { Database } from '../../src/db/database.ts';
import { Character, User } from '../../src/db/entities/index.ts';
import { openTestDatabase, uniqueName } from '../helpers/database.ts';
import { databaseUnderTest } from '../helpers/server.ts';

function rejectsWith(promise: Promise<unknown>, code: string, status: number) {
  return assert.rejects(promise, (error: unknown) => error instanceof AuthError && error.code === code && error.status === status);
}

describe(`accounts and ownership on ${databaseUnderTest()} @db`, () => {
  let db: Database;
  let alice: User;
  let bob: User;
  let alicesCharacter: Character;
  let bobsCharacter: Character;

  before(async () => {
    db = await openTestDatabase();
    const em = db.em.fork();
    alice = em.create(User, { id: randomUUID(), displayName: 'Alice', roles: ['player'] });
    bob = em.create(User, { id: randomUUID(), displayName: 'Bob', roles: ['player'] });
    alicesCharacter = em.create(Character, { id: randomUUID(), accountId: alice.id, name: uniqueName('a') });
    bobsCharacter = em.create(Character, { id: randomUUID(), accountId: bob.id, name: uniqueName('b') });
    await em.flush();
  });
  after(() => db?.close());

  it('assertOwnsCharacter returns the owner\'s character', async () => {
    const character = await assertOwnsCharacter(db.em.fork(), alice.id, alicesCharacter.id);
    assert.equal(character.id, alicesCharacter.id);
  });

  it('assertOwnsCharacter: another account\'s character → 403, a missing one → 404', async () => {
    await rejectsWith(assertOwnsCharacter(db.em.fork(), alice.id, bobsCharacter.id), 'CHARACTER_NOT_OWNED', 403);
    await rejectsWith(assertOwnsCharacter(db.em.fork(), bob.id, alicesCharacter.id), 'CHARACTER_NOT_OWNED', 403);
    await rejectsWith(assertOwnsCharacter(db.em.fork(), alice.id, randomUUID()), 'CHARACTER_NOT_FOUND', 404);
    await rejectsWith(assertOwnsCharacter(db.em.fork(), alice.id, ''), 'CHARACTER_NOT_FOUND', 404);
  });

  it('assertMayActAs: a token bound to one character cannot act as another, even of the same account', async () => {
    const second = db.em.fork().create(Character, { id: randomUUID(), accountId: alice.id, name: uniqueName('s') });
    await db.em.fork().persist(second).flush();
    const bound = { accountId: alice.id, roles: ['player'], scope: 'agent' as const, characterId: alicesCharacter.id, expiresAt: new Date() };
    assert.equal((await assertMayActAs(db.em.fork(), bound, alicesCharacter.id)).id, alicesCharacter.id);
    await rejectsWith(assertMayActAs(db.em.fork(), bound, second.id), 'CHARACTER_NOT_OWNED', 403);
    const unbound = { ...bound, characterId: undefined, scope: 'player' as const };
    assert.equal((await assertMayActAs(db.em.fork(), unbound, second.id)).id, second.id);
    await rejectsWith(assertMayActAs(db.em.fork(), unbound, bobsCharacter.id), 'CHARACTER_NOT_OWNED', 403);
  });

  it('findOrCreateIdpUser is idempotent under concurrency', async () => {
    const subject = `sub-${randomUUID()}`;
    const users = await Promise.all(Array.from({ length: 10 }, () => findOrCreateIdpUser(db.em.fork(), subject)));
    assert.equal(new Set(users.map((u) => u.id)).size, 1);
    assert.equal(await db.em.fork().count(User, { idpSubject: subject }), 1);
    assert.deepEqual(users[0].roles, ['player']);
    assert.equal(users[0].isTemporary, false);
  });

  it('deleteExpiredTemporaryUsers removes only expired temporary accounts, cascading to their characters', async () => {
    const past = new Date(Date.now() - 60_000);
    const expired = await createTemporaryUser(db.em.fork(), 300, new Date(Date.now() - 3_600_000));
    const fresh = await createTemporaryUser(db.em.fork(), 300);
    const em = db.em.fork();
    const permanent = em.create(User, { id: randomUUID(), displayName: 'Keep', expiresAt: past });
    const doomed = em.create(Character, { id: randomUUID(), accountId: expired.id, name: uniqueName('x') });
    await em.flush();
    assert.equal(expired.isTemporary, true);
    assert.deepEqual(expired.roles, ['player']);

    assert.ok(await deleteExpiredTemporaryUsers(db.em.fork()) >= 1);
    const check = db.em.fork();
    assert.equal(await check.count(User, { id: expired.id }), 0);
    assert.equal(await check.count(Character, { id: doomed.id }), 0);
    assert.equal(await check.count(User, { id: fresh.id }), 1);
    assert.equal(await check.count(User, { id: permanent.id }), 1);
  });
});
