import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('the per-connection WebSocket message limit @db', function () {
  this.timeout(30_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ WS_MESSAGES_PER_SECOND: '60', RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  });
  after(() => server?.close());

  it('a flood of 200 messages in one second: at most 60 handled, the flooder closed with 1008, others unaffected', async () => {
    const floodAccount = await anonymousAccount(server);
    const calmAccount = await anonymousAccount(server);
    const flooder = await jsonPlayer(server, floodAccount, (await createCharacterRow(server, floodAccount.accountId, { x: 130, z: 100 })).id);
    const calm = await jsonPlayer(server, calmAccount, (await createCharacterRow(server, calmAccount.accountId, { x: 130, z: 104 })).id);
    const before = flooder.events.length;
    for (let i = 0; i < 200 && flooder.socket.readyState === flooder.socket.OPEN; i++) {
      flooder.send('player:move', { x: 131 + (i % 2), z: 100 });
    }
    const { code } = await flooder.closed;
    assert.equal(code, 1008);
    const handled = flooder.events.slice(before).filter((e) => e.type === 'player:path').length;
    assert.ok(handled <= 60, `${handled} handled`);
    assert.ok(handled > 0);
    assert.ok(flooder.events.some((e) => e.type === 'error' && e.data.code === 'RATE_LIMITED'));

    calm.send('player:move', { x: 131, z: 104 });
    const moved = await calm.next('player:path');
    assert.equal(moved.data.path.length, 1);
    await sleep(50);
    calm.close();
  });
});
