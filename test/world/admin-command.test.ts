import assert from 'node:assert/strict';
import { anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('the /admin chat command over a real socket @db', function () {
  this.timeout(30_000);

  async function playerOn(server: TestServer) {
    const account = await anonymousAccount(server);
    return jsonPlayer(server, account, (await createCharacterRow(server, account.accountId)).id);
  }

  it('grants admin for the right code, refuses a wrong one, and never reaches other players', async () => {
    const server = await startTestServer({ ADMIN_CODE: 'correct horse battery', RATE_LIMIT_AUTH_PER_MINUTE: '100' });
    try {
      const player = await playerOn(server);
      const bystander = await playerOn(server);
      player.send('player:chat', { message: '/admin wrong code' });
      assert.equal((await player.next('error')).data.code, 'ADMIN_CODE_INVALID');
      assert.ok(!player.events.some((e) => e.type === 'admin:granted'));
      player.send('player:chat', { message: '/admin correct horse battery' });
      await player.waitFor('admin:granted');
      assert.ok(!bystander.events.some((e) => e.type === 'chat:message' && /correct/.test(e.data.message)), 'the code is never broadcast');
      player.close();
      bystander.close();
    } finally {
      await server.close();
    }
  });

  it('refuses everyone when no ADMIN_CODE is configured', async () => {
    const server = await startTestServer({ ADMIN_CODE: undefined });
    try {
      const player = await playerOn(server);
      player.send('player:chat', { message: '/admin anything' });
      assert.equal((await player.next('error')).data.code, 'ADMIN_DISABLED');
      player.send('player:chat', { message: '/teleport 1 1' });
      assert.equal((await player.next('error')).data.code, 'UNKNOWN_COMMAND');
      player.close();
    } finally {
      await server.close();
    }
  });

  it('counts admin attempts as authentication attempts (the 11th in a minute is refused)', async () => {
    const server = await startTestServer({ ADMIN_CODE: 'sesame', RATE_LIMIT_AUTH_PER_MINUTE: '10' });
    try {
      const player = await playerOn(server);
      const codes: string[] = [];
      for (let i = 0; i < 11; i++) {
        player.send('player:chat', { message: `/admin guess${i}` });
        codes.push((await player.next('error')).data.code);
      }
      assert.equal(codes.at(-1), 'AUTH_RATE_LIMITED');
      assert.ok(codes.slice(0, 8).every((c) => c === 'ADMIN_CODE_INVALID'));
      player.close();
    } finally {
      await server.close();
    }
  });
});
