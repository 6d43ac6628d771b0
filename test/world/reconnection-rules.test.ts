/**
 * Who may take a player's reconnection seat, on both channels (issue #16 items 2 and 8, issue #17 item 8):
 * - a reconnection token serves a dropped connection only: the token of a live session is refused (/ws:
 *   ALREADY_ONLINE; SDK: RECONNECTION_EXPIRED) and the live socket keeps playing (Colyseus would close it and hand
 *   its seat over);
 * - a used, expired (past the 20 s grace period), unknown or malformed token, or one of a room that is gone, is
 *   INVALID_RECONNECTION_TOKEN (SDK: RECONNECTION_EXPIRED);
 * - the reconnecting connection must present a valid token of the same account (SDK: `Authorization: Bearer` on
 *   the room socket; /ws: the `authenticate` before), else the seat stays waiting for its owner.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client as SdkClient, type Room as SdkRoom } from '@colyseus/sdk';
import { RECONNECT_GRACE_SECONDS } from '../../rooms/WorldRoom.ts';
import { seed } from '../economy/support.ts';
import { anonymousAccount, createCharacterRow, dropSdkConnection, jsonPlayer, type TestAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { until } from '../helpers/until.ts';

/** A /ws socket that authenticated as `account` and then asked to reconnect with `reconnectionToken`. */
async function jsonReconnect(server: TestServer, account: TestAccount, reconnectionToken: string): Promise<JsonWsClient> {
  const client = await JsonWsClient.connect(server.wsUrl);
  client.send('authenticate', { token: account.token });
  assert.equal((await client.waitFor('authResult')).data.success, true);
  client.send('world:enter', { reconnectionToken });
  return client;
}

async function enterRefusal(client: JsonWsClient): Promise<string> {
  const event = await Promise.race([
    client.waitFor('error', (d) => d.event === 'world:enter'),
    client.waitFor('world:joined').then(() => ({ data: { code: 'JOINED' } })),
  ]);
  return event.data.code;
}

function sdkFor(server: TestServer, account?: TestAccount): SdkClient {
  return new SdkClient(server.baseUrl, account ? { headers: { Authorization: `Bearer ${account.token}` } } : {});
}

/** Closes the SDK room's socket without a consented leave, so the server holds its seat. */
async function dropSdk(room: SdkRoom, server: TestServer, characterId: string): Promise<void> {
  await dropSdkConnection(room);
  assert.ok(server.context.online.has(characterId), 'the character keeps its seat');
}

describe('reconnection rules @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  describe('/ws', () => {
    it('refuses the token of a live session with ALREADY_ONLINE and the live socket keeps playing', async () => {
      const account = await anonymousAccount(server);
      const character = await createCharacterRow(server, account.accountId);
      const live = await jsonPlayer(server, account, character.id);
      const { reconnectionToken } = (await live.waitFor('world:joined')).data;

      const intruder = await jsonReconnect(server, account, reconnectionToken);
      assert.equal(await enterRefusal(intruder), 'ALREADY_ONLINE');
      live.send('player:chat', { message: 'still here' });
      await live.next('chat:message', (d) => d.message === 'still here');
      assert.equal(live.socket.readyState, live.socket.OPEN, 'the live socket was not closed');
      live.close();
      intruder.close();
    });

    it('answers INVALID_RECONNECTION_TOKEN for a used, unknown, malformed or gone-room token', async () => {
      const account = await anonymousAccount(server);
      const character = await createCharacterRow(server, account.accountId);
      const first = await jsonPlayer(server, account, character.id);
      const { roomId, reconnectionToken } = (await first.waitFor('world:joined')).data;
      first.socket.terminate();
      await sleep(200);
      const second = await jsonReconnect(server, account, reconnectionToken);
      await second.waitFor('world:joined');

      for (const token of [reconnectionToken, `${roomId}:not-a-token`, 'no-such-room:abc', 'malformed', `${roomId}:a:b`]) {
        const client = await jsonReconnect(server, account, token);
        assert.equal(await enterRefusal(client), 'INVALID_RECONNECTION_TOKEN', token);
        client.close();
      }
      second.close();
    });

    it('refuses the seat to another account (FORBIDDEN) and keeps it for the owner', async () => {
      const owner = await anonymousAccount(server);
      const other = await anonymousAccount(server);
      const character = await createCharacterRow(server, owner.accountId);
      const first = await jsonPlayer(server, owner, character.id);
      const { reconnectionToken } = (await first.waitFor('world:joined')).data;
      first.socket.terminate();
      await sleep(200);

      const thief = await jsonReconnect(server, other, reconnectionToken);
      assert.equal(await enterRefusal(thief), 'FORBIDDEN');
      const back = await jsonReconnect(server, owner, reconnectionToken);
      await back.waitFor('world:joined');
      thief.close();
      back.close();
    });
  });

  it('a token whose 20 s grace period ran out: /ws INVALID_RECONNECTION_TOKEN, SDK RECONNECTION_EXPIRED', async function () {
    this.timeout(RECONNECT_GRACE_SECONDS * 1000 + 40_000);
    const account = await anonymousAccount(server);
    const wsCharacter = await createCharacterRow(server, account.accountId);
    const sdkCharacter = await createCharacterRow(server, account.accountId);
    const first = await jsonPlayer(server, account, wsCharacter.id);
    const { reconnectionToken } = (await first.waitFor('world:joined')).data;
    const room = await sdkFor(server, account).join('world', { characterId: sdkCharacter.id });
    room.onMessage('*', () => {});
    const sdkToken = room.reconnectionToken;
    first.socket.terminate();
    await dropSdk(room, server, sdkCharacter.id);
    // Both seats are held for the grace period, then given up: the players leave the world.
    await until(() => !server.context.online.has(wsCharacter.id) && !server.context.online.has(sdkCharacter.id),
      'both seats expired', RECONNECT_GRACE_SECONDS * 1000 + 10_000);

    const late = await jsonReconnect(server, account, reconnectionToken);
    assert.equal(await enterRefusal(late), 'INVALID_RECONNECTION_TOKEN');
    late.close();
    await assert.rejects(sdkFor(server, account).reconnect(sdkToken), /RECONNECTION_EXPIRED/);
  });

  describe('Colyseus SDK', () => {
    it('refuses the token of a live session and leaves the live room connected', async () => {
      const account = await anonymousAccount(server);
      const character = await createCharacterRow(server, account.accountId);
      const room = await sdkFor(server, account).join('world', { characterId: character.id });
      room.onMessage('*', () => {});
      let left: number | undefined;
      room.onLeave((code) => (left = code));
      await assert.rejects(sdkFor(server, account).reconnect(room.reconnectionToken), /RECONNECTION_EXPIRED/);
      room.send('player:chat', { message: 'still here' });
      await new Promise<void>((resolve) => room.onMessage('chat:message', (m: { message: string }) => m.message === 'still here' && resolve()));
      assert.equal(left, undefined, 'the live room was not closed');
      await room.leave();
    });

    it('a dropped seat is taken only with a valid token of the same account; the owner keeps every coin', async () => {
      const owner = await anonymousAccount(server);
      const other = await anonymousAccount(server);
      const character = await createCharacterRow(server, owner.accountId, { x: 101, z: 100 });
      await seed(server.context.db, character.id, { inventory: [{ itemId: 'coins', quantity: 500 }] });
      const room = await sdkFor(server, owner).join('world', { characterId: character.id });
      room.onMessage('*', () => {});
      const token = room.reconnectionToken;
      await dropSdk(room, server, character.id);

      // No login at all, a forged token, another account's token: each is refused and nobody is let in.
      const noLogin = sdkFor(server);
      await assert.rejects(noLogin.reconnect(token), /AUTH_REQUIRED/);
      await assert.rejects(new SdkClient(server.baseUrl, { headers: { Authorization: 'Bearer not-a-token' } }).reconnect(token), /TOKEN_INVALID/);
      await assert.rejects(sdkFor(server, other).reconnect(token), /FORBIDDEN/);

      const again = await sdkFor(server, owner).reconnect(token);
      again.onMessage('*', () => {});
      await until(() => again.state.players?.get(character.id)?.x === 101, 'the owner is back in place');
      const [row] = await server.context.db.em.fork().execute<Array<{ quantity: number }>>(
        "select quantity from inventory where character_id = ? and item_id = 'coins'", [character.id]);
      assert.equal(Number(row?.quantity), 500, 'the coins are where the owner left them');
      await again.leave();
    });
  });
});
