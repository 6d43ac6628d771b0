import assert from 'node:assert/strict';
import { lastSync, request, seededPlayer, worldRoomOf } from '../economy/support.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('friends, private messages and ignore lists over real sockets @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('friend request → accept → private message → ignore blocks it', async () => {
    const a = await seededPlayer(server, { x: 100, z: 100 });
    const b = await seededPlayer(server, { x: 101, z: 100 });
    const aName = lastSync(a.client).name as string;
    const bName = lastSync(b.client).name as string;

    const early = await request(a.client, 'chat:private', { toName: bName, message: 'hello?' }, 'chat:privateMessageSent');
    assert.equal(early.ok ? 'sent' : early.code, 'NOT_FRIENDS');

    const sent = await request(a.client, 'friend:request', { name: bName.toUpperCase() }, 'friend:requestSent');
    assert.ok(sent.ok);
    assert.deepEqual((await b.client.waitFor('friend:requestReceived')).data, { characterId: a.characterId, name: aName });
    const twice = await request(a.client, 'friend:request', { characterId: b.characterId }, 'friend:requestSent');
    assert.equal(twice.ok ? 'sent' : twice.code, 'ALREADY_REQUESTED');
    const state = await b.client.waitFor('social:state', (d) => d.incoming.length === 1);
    assert.deepEqual(state.data.incoming, [{ characterId: a.characterId, name: aName, online: true, world: lastSync(a.client).world }]);

    const accepted = await request(b.client, 'friend:accept', { characterId: a.characterId }, 'friend:added');
    assert.ok(accepted.ok);
    assert.deepEqual((await a.client.waitFor('friend:added')).data, { characterId: b.characterId, name: bName, online: true, world: lastSync(b.client).world });
    const rows = await server.context.db.em.fork().execute<Array<{ character_id: string }>>(
      'select character_id from friendships where character_id in (?, ?)', [a.characterId, b.characterId]);
    assert.equal(rows.length, 2, 'a friendship is stored in both directions');
    const pending = await server.context.db.em.fork().execute('select id from friend_requests where from_character_id = ?', [a.characterId]);
    assert.equal(pending.length, 0);

    const pm = await request(a.client, 'chat:private', { toName: bName, message: '  hi\tthere ' }, 'chat:privateMessageSent');
    assert.ok(pm.ok);
    const got = await b.client.waitFor('chat:privateMessage');
    assert.equal(got.data.message, 'hi there');
    assert.equal(got.data.fromId, a.characterId);
    assert.equal(got.data.channel, 'private');

    const ignored = await request(b.client, 'ignore:add', { characterId: a.characterId }, 'ignore:added');
    assert.ok(ignored.ok);
    assert.ok(worldRoomOf(b.client).player(b.characterId)!.ignores.has(a.characterId), 'public chat honours the new ignore entry');
    const blocked = await request(a.client, 'chat:private', { toId: b.characterId, message: 'hi again' }, 'chat:privateMessageSent');
    assert.equal(blocked.ok ? 'sent' : blocked.code, 'IGNORED');
    assert.equal(b.client.events.filter((e) => e.type === 'chat:privateMessage').length, 1);
    const request2 = await request(a.client, 'friend:request', { characterId: b.characterId }, 'friend:requestSent');
    assert.equal(request2.ok ? 'sent' : request2.code, 'IGNORED', 'ignoring ended the friendship and refuses new requests');

    const unignored = await request(b.client, 'ignore:remove', { characterId: a.characterId }, 'ignore:removed');
    assert.ok(unignored.ok);
    assert.ok(!worldRoomOf(b.client).player(b.characterId)!.ignores.has(a.characterId));
    a.client.close();
    b.client.close();
  });

  it('friends hear online/offline status; decline and remove', async () => {
    const a = await seededPlayer(server, { x: 100, z: 100 });
    const b = await seededPlayer(server, { x: 101, z: 100 });
    const c = await seededPlayer(server, { x: 102, z: 100 });
    assert.ok((await request(a.client, 'friend:request', { characterId: b.characterId }, 'friend:requestSent')).ok);
    // Crossed requests make friends at once.
    assert.ok((await request(b.client, 'friend:request', { characterId: a.characterId }, 'friend:added')).ok);
    assert.ok((await request(c.client, 'friend:request', { characterId: a.characterId }, 'friend:requestSent')).ok);
    assert.ok((await request(a.client, 'friend:decline', { characterId: c.characterId }, 'friend:declined')).ok);
    const none = await request(a.client, 'friend:accept', { characterId: c.characterId }, 'friend:added');
    assert.equal(none.ok ? 'accepted' : none.code, 'NO_REQUEST');

    // Only statuses sent from here on count: a's own entry announced it online on a tick (every 600 ms), which may
    // have come after the two became friends, and an old `online: true` would let the removal below race a's entry.
    const isA = (online: boolean) => (d: { characterId?: string; online?: boolean }) => d.characterId === a.characterId && d.online === online;
    const offline = b.client.next('friend:status', isA(false));
    a.client.send('world:leave');
    await offline;
    const online = b.client.next('friend:status', isA(true));
    a.client.send('world:enter', { characterId: a.characterId });
    await online;

    assert.ok((await request(b.client, 'friend:remove', { characterId: a.characterId }, 'friend:removed')).ok);
    await a.client.waitFor('friend:removed');
    const after = await request(a.client, 'chat:private', { toId: b.characterId, message: 'still there?' }, 'chat:privateMessageSent');
    assert.equal(after.ok ? 'sent' : after.code, 'NOT_FRIENDS');
    for (const p of [a, b, c]) p.client.close();
  });
});
