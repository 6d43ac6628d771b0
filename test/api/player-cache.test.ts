import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { accountChanged } from '../../src/db/account-changes.ts';
import { PlayerCache, type AccountSnapshot } from '../../src/http/routes/player-cache.ts';
import { anonymousAccount, type TestAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { call } from './support.ts';

const name = () => `C${randomUUID().replaceAll('-', '').slice(0, 8)}`;

describe('GET /api/v1/player is cached and shows every change on the next read @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  let account: TestAccount;

  before(async () => {
    server = await startTestServer();
    account = await anonymousAccount(server);
  });
  after(async () => {
    await server.close();
  });

  const player = async (token = account.token) => {
    const response = await call(server, 'GET', '/api/v1/player', token);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  };

  it('serves repeated reads from the cache (a write nobody announces is not seen)', async () => {
    const before = await player();
    await server.context.db.em.fork().getConnection().execute('update users set display_name = ? where id = ?', ['Unannounced', account.accountId]);
    assert.equal((await player()).displayName, before.displayName, 'the second read did not query the database');
    accountChanged(account.accountId);
    assert.equal((await player()).displayName, 'Unannounced');
  });

  it('profile POST, character create, select, delete: each shows on the next GET', async () => {
    await player();
    assert.equal((await call(server, 'POST', '/api/v1/player', account.token, { displayName: 'Cached Hero', avatar: 'knight' })).status, 200);
    let body = await player();
    assert.equal(body.displayName, 'Cached Hero');
    assert.equal(body.avatar, 'knight');

    const first = await call(server, 'POST', '/api/character', account.token, { name: name() });
    assert.equal(first.status, 201);
    body = await player();
    assert.deepEqual(body.characters.map((c: { id: string }) => c.id), [first.body.id]);
    assert.equal(body.activeCharacterId, null);

    const second = await call(server, 'POST', '/api/character', account.token, { name: name() });
    body = await player();
    assert.deepEqual(body.characters.map((c: { id: string }) => c.id), [first.body.id, second.body.id]);

    assert.equal((await call(server, 'POST', `/api/character/${second.body.id}/select`, account.token)).status, 200);
    body = await player();
    assert.equal(body.activeCharacterId, second.body.id);
    assert.deepEqual(body.characters.map((c: { active: boolean }) => c.active), [false, true]);

    assert.equal((await call(server, 'POST', `/api/character/${first.body.id}/select`, account.token)).status, 200);
    assert.equal((await player()).activeCharacterId, first.body.id);

    assert.equal((await call(server, 'DELETE', `/api/character/${first.body.id}`, account.token)).status, 204);
    body = await player();
    assert.deepEqual(body.characters.map((c: { id: string }) => c.id), [second.body.id]);
    assert.equal(body.activeCharacterId, null, 'deleting the selected character clears the selection');

    assert.equal((await call(server, 'POST', '/api/v1/player', account.token, { avatar: null })).status, 200);
    assert.equal((await player()).avatar, null);
  });

  it('a character-bound token sees only its character, as the active one, from the same cached account', async () => {
    const other = await call(server, 'POST', '/api/character', account.token, { name: name() });
    const all = await player();
    assert.ok(all.characters.length >= 2);
    const bound = await call(server, 'POST', '/api/auth/character-token', account.token, { characterId: other.body.id });
    assert.equal(bound.status, 200, JSON.stringify(bound.body));
    const body = await player(bound.body.token);
    assert.deepEqual(body.characters.map((c: { id: string }) => c.id), [other.body.id]);
    assert.equal(body.activeCharacterId, other.body.id);
    assert.equal(body.characters[0].active, true);
  });

  it('entering and leaving the world show on the next GET, even with no read in between', async () => {
    const created = await call(server, 'POST', '/api/character', account.token, { name: name() });
    const id = created.body.id;
    const find = (body: { characters: Array<{ id: string }> }) => body.characters.find((c) => c.id === id) as unknown as { online: boolean; lastLoginAt: string | null };
    assert.equal(find(await player()).lastLoginAt, null);

    const client = await JsonWsClient.connect(server.wsUrl);
    client.send('authenticate', { token: account.token, characterId: id });
    await client.waitFor('world:joined');
    const inWorld = find(await player());
    assert.equal(inWorld.online, true);
    assert.notEqual(inWorld.lastLoginAt, null, 'the join wrote the last login');
    client.send('world:leave');
    await client.waitFor('world:left');
    assert.equal(find(await player()).online, false);

    // Join and leave again without a GET while in the world: the new last login must still show.
    const seen = find(await player()).lastLoginAt!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    client.send('world:enter', { characterId: id });
    await client.waitFor('world:joined', () => true, 5_000, client.events.length);
    client.send('world:leave');
    await client.waitFor('world:left', () => true, 5_000, client.events.findLastIndex((e) => e.type === 'world:joined'));
    const after = find(await player());
    assert.equal(after.online, false);
    assert.ok(Date.parse(after.lastLoginAt!) > Date.parse(seen), `${after.lastLoginAt} after ${seen}`);
    client.socket.close();
  });

  it('a character created by entering the world shows on the next GET', async () => {
    const fresh = await anonymousAccount(server);
    assert.deepEqual((await player(fresh.token)).characters, []);
    const client = await JsonWsClient.connect(server.wsUrl);
    client.send('authenticate', { token: fresh.token });
    await client.waitFor('authResult');
    const wanted = name();
    client.send('world:enter', { createCharacter: { name: wanted } });
    await client.waitFor('world:joined');
    const body = await player(fresh.token);
    assert.deepEqual(body.characters.map((c: { name: string; online: boolean }) => [c.name, c.online]), [[wanted, true]]);
    client.socket.close();
  });
});

describe('PlayerCache', () => {
  const snapshot = (displayName: string, characterIds: string[] = [], expiresAt: Date | null = null): AccountSnapshot => ({
    accountId: 'a1', displayName, avatar: null, temporary: expiresAt !== null, expiresAt, activeCharacterId: null,
    characters: characterIds.map((id) => ({ id, name: id, combatLevel: 3, createdAt: '2026-01-01T00:00:00.000Z', lastLoginAt: null })),
  });
  const nobodyInWorld = () => false;

  it('does not store a read that was in flight while the account changed', async () => {
    const cache = new PlayerCache();
    let release!: () => void;
    const pending = cache.read('a1', () => new Promise((resolve) => { release = () => resolve(snapshot('old')); }), nobodyInWorld);
    cache.accountChanged('a1');
    release();
    assert.equal((await pending).displayName, 'old');
    assert.equal((await cache.read('a1', async () => snapshot('new'), nobodyInWorld)).displayName, 'new');
    assert.equal((await cache.read('a1', async () => snapshot('newer'), nobodyInWorld)).displayName, 'new', 'now cached');
  });

  it('reloads when a character entered or left the world, after the maximum age and after a temporary account expires', async () => {
    let now = 1_000_000;
    const cache = new PlayerCache({ maxAgeMs: 1_000, now: () => now });
    const inWorld = new Set<string>();
    const present = (id: string) => inWorld.has(id);
    let loads = 0;
    const load = async () => snapshot(`v${++loads}`, ['c1'], new Date(now + 10_000));
    assert.equal((await cache.read('a1', load, present)).displayName, 'v1');
    assert.equal((await cache.read('a1', load, present)).displayName, 'v1');
    inWorld.add('c1');
    assert.equal((await cache.read('a1', load, present)).displayName, 'v2');
    assert.equal((await cache.read('a1', load, present)).displayName, 'v2');
    inWorld.delete('c1');
    assert.equal((await cache.read('a1', load, present)).displayName, 'v3');
    now += 1_000;
    assert.equal((await cache.read('a1', load, present)).displayName, 'v4', 'expired by age');
    now += 999;
    assert.equal((await cache.read('a1', load, present)).displayName, 'v4');
    const expiring = new PlayerCache({ now: () => now });
    await expiring.read('a2', async () => snapshot('t1', [], new Date(now + 5)), nobodyInWorld);
    now += 5;
    assert.equal((await expiring.read('a2', async () => snapshot('t2'), nobodyInWorld)).displayName, 't2', 'a temporary account past its expiry is read again');
  });
});
