import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import { json } from '../helpers/http.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer, visibleEntities, type TestAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

const HOME = { x: 100, z: 100 };

describe('the /ws JSON channel @db', function () {
  this.timeout(30_000);
  let server: TestServer;
  let account: TestAccount;

  before(async () => {
    server = await startTestServer({ WS_AUTH_TIMEOUT_MS: '400', WORLD_INTEREST_RADIUS: '6' });
    account = await anonymousAccount(server);
  });
  after(() => server?.close());

  it('authenticates with the first message and enters the world with a new character', async () => {
    const client = await JsonWsClient.connect(server.wsUrl);
    client.send('authenticate', { token: account.token });
    const auth = await client.waitFor('authResult');
    assert.deepEqual({ success: auth.data.success, accountId: auth.data.accountId }, { success: true, accountId: account.accountId });
    client.send('world:enter', { createCharacter: { name: `N${Date.now() % 1e8}` } });
    const sync = await client.waitFor('player:sync');
    assert.equal(sync.data.x, HOME.x);
    assert.equal(sync.data.z, HOME.z);
    const joined = await client.waitFor('world:joined');
    assert.match(joined.data.reconnectionToken, /^[\w-]+:[\w-]+$/);
    const status = await json(await fetch(`${server.baseUrl}/status`));
    assert.ok(status.playersOnline >= 1);
    client.close();
  });

  it('creates characters on entering through the same path as REST: starting kit and the per-account limit', async () => {
    const kitted = await anonymousAccount(server);
    const client = await JsonWsClient.connect(server.wsUrl);
    client.send('authenticate', { token: kitted.token });
    await client.waitFor('authResult');
    client.send('world:enter', { createCharacter: { name: `K${Date.now() % 1e8}`, templateId: 'wanderer' } });
    const sync = await client.waitFor('player:sync');
    assert.equal(sync.data.inventory[0]?.itemId, 'bronze_hatchet');
    client.close();

    const full = await anonymousAccount(server);
    for (let i = 0; i < 10; i++) await createCharacterRow(server, full.accountId);
    const refused = await JsonWsClient.connect(server.wsUrl);
    refused.send('authenticate', { token: full.token });
    await refused.waitFor('authResult');
    refused.send('world:enter', { createCharacter: { name: `L${Date.now() % 1e8}` } });
    assert.equal((await refused.waitFor('error')).data.code, 'CHARACTER_LIMIT');
    refused.send('world:enter', { createCharacter: { name: `M${Date.now() % 1e8}`, templateId: 'nobody' } });
    assert.equal((await refused.next('error')).data.code, 'TEMPLATE_NOT_FOUND');
    refused.close();
  });

  it('closes with 4001 when no authenticate arrives in time', async () => {
    const client = await JsonWsClient.connect(server.wsUrl);
    const { code } = await client.closed;
    assert.equal(code, 4001);
  });

  it('answers a bad token with a failed authResult and closes with 4001', async () => {
    const client = await JsonWsClient.connect(server.wsUrl);
    client.send('authenticate', { token: 'not.a.token' });
    const auth = await client.waitFor('authResult');
    assert.equal(auth.data.success, false);
    assert.equal(typeof auth.data.error.code, 'string');
    assert.equal((await client.closed).code, 4001);
  });

  it('accepts an Authorization header on the upgrade instead of the first message', async () => {
    const character = await createCharacterRow(server, account.accountId);
    const client = await JsonWsClient.connect(server.wsUrl, { Authorization: `Bearer ${account.token}` });
    assert.equal((await client.waitFor('authResult')).data.success, true);
    client.send('world:enter', { characterId: character.id });
    await client.waitFor('world:joined');
    client.close();
  });

  it('refuses a character of another account and never loads it', async () => {
    const other = await anonymousAccount(server);
    const theirs = await createCharacterRow(server, other.accountId);
    const client = await JsonWsClient.connect(server.wsUrl);
    client.send('authenticate', { token: account.token });
    await client.waitFor('authResult');
    client.send('world:enter', { characterId: theirs.id });
    const error = await client.waitFor('error');
    assert.equal(error.data.code, 'CHARACTER_NOT_OWNED');
    assert.ok(!client.events.some((e) => e.type === 'player:sync'));
    client.close();
  });

  it('refuses a second login of a character that is connected', async () => {
    const character = await createCharacterRow(server, account.accountId);
    const first = await jsonPlayer(server, account, character.id);
    const second = await JsonWsClient.connect(server.wsUrl);
    second.send('authenticate', { token: account.token, characterId: character.id });
    const error = await second.waitFor('error');
    assert.equal(error.data.code, 'ALREADY_ONLINE');
    first.close();
    second.close();
  });

  it('answers unknown events and malformed JSON with an error and keeps the connection', async () => {
    const character = await createCharacterRow(server, account.accountId);
    const client = await jsonPlayer(server, account, character.id);
    client.send('player:teleportEverywhere', {});
    assert.equal((await client.next('error')).data.code, 'UNKNOWN_EVENT');
    client.sendRaw('{"type": "player:move", ');
    assert.equal((await client.next('error')).data.code, 'MALFORMED_JSON');
    client.sendRaw('[1,2,3]');
    assert.equal((await client.next('error')).data.code, 'INVALID_ENVELOPE');
    client.send('player:move', { x: 100.5, z: 100 });
    assert.equal((await client.next('error')).data.code, 'INVALID_PAYLOAD');
    client.send('player:move', { x: HOME.x + 1, z: HOME.z });
    const moved = await client.next('player:path');
    assert.equal(moved.data.path.length, 1);
    client.close();
  });

  it('refuses moves off the map, onto blocked tiles and absurdly far, changing nothing', async () => {
    const character = await createCharacterRow(server, account.accountId);
    const client = await jsonPlayer(server, account, character.id);
    const codes: string[] = [];
    for (const target of [{ x: -1, z: 5 }, { x: 100, z: 100_000 }, { x: 199, z: 199 }]) {
      client.send('player:move', target);
      codes.push((await client.next('error')).data.code);
    }
    const grid = computeBlockedTiles(server.context.data!);
    const near = [] as Array<{ x: number; z: number }>;
    for (let x = HOME.x - 20; x <= HOME.x + 20; x++) for (let z = HOME.z - 20; z <= HOME.z + 20; z++) if (grid.isBlocked(x, z)) near.push({ x, z });
    assert.ok(near.length > 0, 'the town has walls or stations near home');
    client.send('player:move', near[0]);
    codes.push((await client.next('error')).data.code);
    assert.deepEqual(codes, ['OUT_OF_BOUNDS', 'OUT_OF_BOUNDS', 'TOO_FAR', 'BLOCKED']);
    assert.ok(!client.events.some((e) => e.type === 'player:path'), 'no path was set');
    await sleep(700);
    const me = visibleEntities(client).get(`player:${character.id}`);
    assert.deepEqual({ x: me?.x, z: me?.z }, HOME, 'the player did not move');
    client.close();
  });

  it('closes binary frames with 1003 and oversize frames with 1009', async () => {
    const character = await createCharacterRow(server, account.accountId);
    const binary = await jsonPlayer(server, account, character.id);
    binary.sendRaw(Buffer.from([1, 2, 3]), true);
    assert.equal((await binary.closed).code, 1003);
    await sleep(100);
    const oversize = await JsonWsClient.connect(server.wsUrl);
    oversize.sendRaw(JSON.stringify({ type: 'player:chat', data: { message: 'x'.repeat(5000) } }));
    assert.equal((await oversize.closed).code, 1009);
  });

  it('shows a far player only once it comes within the area of interest, and hides it when it leaves', async () => {
    const watcherAccount = await anonymousAccount(server);
    const walkerAccount = await anonymousAccount(server);
    const watcherCharacter = await createCharacterRow(server, watcherAccount.accountId, { x: 100, z: 110 });
    const walkerCharacter = await createCharacterRow(server, walkerAccount.accountId, { x: 100, z: 100 });
    const watcher = await jsonPlayer(server, watcherAccount, watcherCharacter.id);
    const walker = await jsonPlayer(server, walkerAccount, walkerCharacter.id);
    await sleep(700);
    assert.ok(!visibleEntities(watcher).has(`player:${walkerCharacter.id}`), 'invisible while 10 tiles away (radius 6)');

    walker.send('player:move', { x: 100, z: 106, run: true });
    await watcher.waitFor('world:update', (d) => d.added.some((e: { id: string }) => e.id === walkerCharacter.id), 5_000);
    assert.equal(visibleEntities(watcher).get(`player:${walkerCharacter.id}`)?.name, walkerCharacter.name);

    walker.send('player:move', { x: 100, z: 100, run: true });
    await watcher.waitFor('world:update', (d) => d.removed.some((e: { id: string }) => e.id === walkerCharacter.id), 5_000);
    assert.ok(!visibleEntities(watcher).has(`player:${walkerCharacter.id}`));
    watcher.close();
    walker.close();
  });

  it('chat reaches players in range, sanitised, and not those who ignore the sender', async () => {
    const a = await anonymousAccount(server);
    const b = await anonymousAccount(server);
    const c = await anonymousAccount(server);
    const [ca, cb, cc] = await Promise.all([
      createCharacterRow(server, a.accountId, { x: 90, z: 90 }),
      createCharacterRow(server, b.accountId, { x: 91, z: 90 }),
      createCharacterRow(server, c.accountId, { x: 92, z: 90 }),
    ]);
    const em = server.context.db.em.fork();
    await em.getConnection().execute('insert into ignore_lists (account_id, ignored_character_id, created_at) values (?, ?, now())', [c.accountId, ca.id]);
    const [pa, pb, pc] = [await jsonPlayer(server, a, ca.id), await jsonPlayer(server, b, cb.id), await jsonPlayer(server, c, cc.id)];
    pa.send('player:chat', { message: 'hello\u0007 \u202eworld  ' });
    const heard = await pb.waitFor('chat:message');
    assert.deepEqual({ from: heard.data.fromId, message: heard.data.message }, { from: ca.id, message: 'hello world' });
    await sleep(300);
    assert.ok(!pc.events.some((e) => e.type === 'chat:message'), 'the ignoring player hears nothing');

    pa.send('player:chat', { message: 'y'.repeat(201) });
    assert.equal((await pa.next('error')).data.code, 'MESSAGE_TOO_LONG');
    for (let i = 0; i < 5; i++) pa.send('player:chat', { message: `m${i}` });
    assert.equal((await pa.next('error', (d) => d.code === 'CHAT_RATE_LIMITED')).data.code, 'CHAT_RATE_LIMITED');
    for (const p of [pa, pb, pc]) p.close();
  });

  it('a dropped connection reconnects within the grace period and keeps its place', async () => {
    const character = await createCharacterRow(server, account.accountId, { x: 95, z: 95 });
    const first = await jsonPlayer(server, account, character.id);
    const { reconnectionToken } = (await first.waitFor('world:joined')).data;
    first.send('player:move', { x: 97, z: 95 });
    await first.waitFor('world:update', (d) => d.changed.some((e: { id: string; x: number }) => e.id === character.id && e.x === 97), 5_000);
    first.socket.terminate();
    await sleep(200);
    const second = await JsonWsClient.connect(server.wsUrl);
    second.send('authenticate', { token: account.token, reconnectionToken });
    const sync = await second.waitFor('player:sync');
    assert.deepEqual({ x: sync.data.x, z: sync.data.z }, { x: 97, z: 95 });
    second.close();
  });
});
