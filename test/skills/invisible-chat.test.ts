/**
 * Invisible chat over real sockets (issue #17 item 11): public chat and private messages with nothing visible in
 * them are refused with EMPTY_MESSAGE and reach nobody; padding and mark stacks are cut from visible ones.
 */
import assert from 'node:assert/strict';
import { MAX_MARKS_PER_BASE } from '../../src/game/chat-text.ts';
import { lastSync, request, seededPlayer } from '../economy/support.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const INVISIBLE = {
  'Hangul fillers': '\u3164'.repeat(200),
  'tag characters': String.fromCodePoint(...Array.from({ length: 100 }, (_, i) => 0xe0021 + (i % 90))),
  'soft hyphens': '\u00ad'.repeat(200),
  'a combining stack': '\u0301'.repeat(150),
};

describe('invisible chat is refused, public and private @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('refuses messages with nothing visible with EMPTY_MESSAGE and delivers none of them; caps marks on visible ones', async () => {
    const a = await seededPlayer(server, { x: 120, z: 120 });
    const b = await seededPlayer(server, { x: 121, z: 120 });
    const bName = lastSync(b.client).name as string;
    await Promise.all([a.client.waitFor('social:state'), b.client.waitFor('social:state')]); // friend lists loaded
    assert.ok((await request(a.client, 'friend:request', { name: bName }, 'friend:requestSent')).ok);
    const aTold = a.client.waitFor('friend:added', () => true, 10_000);
    assert.ok((await request(b.client, 'friend:accept', { characterId: a.characterId }, 'friend:added')).ok);
    // The sender's own lists are reloaded when it is told (friend:added): messaging before that is NOT_FRIENDS.
    await aTold;

    for (const [what, text] of Object.entries(INVISIBLE)) {
      const spoken = await request(a.client, 'player:chat', { message: text }, 'chat:message');
      assert.equal(spoken.ok ? 'delivered' : spoken.code, 'EMPTY_MESSAGE', `public: ${what}`);
      const sent = await request(a.client, 'chat:private', { toName: bName, message: text }, 'chat:privateMessageSent');
      assert.equal(sent.ok ? 'delivered' : sent.code, 'EMPTY_MESSAGE', `private: ${what}`);
    }
    assert.equal(b.client.events.filter((e) => e.type === 'chat:message' || e.type === 'chat:privateMessage').length, 0);

    const zalgo = `q${'\u0301'.repeat(150)}${'\u3164'.repeat(20)} hi`;
    const expected = `q${'\u0301'.repeat(MAX_MARKS_PER_BASE)} hi`;
    assert.ok((await request(a.client, 'player:chat', { message: zalgo }, 'chat:message')).ok);
    assert.equal((await b.client.waitFor('chat:message')).data.message, expected);
    assert.ok((await request(a.client, 'chat:private', { toName: bName, message: zalgo }, 'chat:privateMessageSent')).ok);
    assert.equal((await b.client.waitFor('chat:privateMessage')).data.message, expected);
    a.client.close();
    b.client.close();
  });
});
