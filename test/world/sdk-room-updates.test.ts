/**
 * The SDK's alternative to schema sync (docs/worlds.md): `join('world', {characterId, updates: 'json'})` gets the
 * /ws area-of-interest deltas as `world:update` room messages (the JSON text of their data) and no schema view.
 */
import assert from 'node:assert/strict';
import { Client as SdkClient, type Room } from '@colyseus/sdk';
import { anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';

type Update = { tick: number; sentAt: number; added: Array<Record<string, unknown>>; changed: Array<Record<string, unknown>>; removed: unknown[] };

describe(`SDK clients with world:update room messages (${databaseUnderTest()}) @db`, function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  async function sdkJoin(options: Record<string, unknown>): Promise<{ room: Room; updates: Update[] }> {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, { x: 100, z: 100 });
    const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${account.token}` } });
    const room = await sdk.join('world', { characterId: character.id, ...options });
    const updates: Update[] = [];
    room.onMessage('world:update', (text: unknown) => {
      assert.equal(typeof text, 'string', 'the message is the JSON text of the update');
      updates.push(JSON.parse(text as string));
    });
    room.onMessage('*', () => {});
    return { room, updates };
  }

  it('delivers the /ws deltas as room messages and no schema view', async () => {
    const { room, updates } = await sdkJoin({ updates: 'json' });
    const neighbourAccount = await anonymousAccount(server);
    const neighbour = await createCharacterRow(server, neighbourAccount.accountId, { x: 101, z: 100 });
    const walker = await jsonPlayer(server, neighbourAccount, neighbour.id);
    walker.send('player:move', { x: 103, z: 100 });
    const deadline = Date.now() + 10_000;
    const seen = () => updates.some((u) => u.added.some((e) => e.id === neighbour.id))
      && updates.some((u) => u.changed.some((e) => e.id === neighbour.id && e.x !== undefined));
    while (!seen() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(seen(), 'the neighbour came into view and its move arrived as a change');
    assert.ok(updates.every((u) => typeof u.tick === 'number' && typeof u.sentAt === 'number'));
    const state = room.state as { players?: Map<string, unknown>; tick?: number };
    assert.equal(state.players?.size ?? 0, 0, 'no entity reaches the schema state: the client has no view');
    // No schema patches either (they would carry only the tick, which world:update carries): the state stays as joined.
    assert.ok(updates.at(-1)!.tick > (state.tick ?? 0) + 1, `updates reach tick ${updates.at(-1)!.tick}, the state stays at ${state.tick}`);
    walker.close();
    await room.leave();
  });

  it('keeps schema sync without the option, and refuses an unknown encoding', async () => {
    const { room, updates } = await sdkJoin({});
    const deadline = Date.now() + 5_000;
    while (((room.state as { players?: Map<string, unknown> }).players?.size ?? 0) === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(((room.state as { players?: Map<string, unknown> }).players?.size ?? 0) >= 1, 'the schema view holds the player');
    assert.equal(updates.length, 0);
    await room.leave();
    await assert.rejects(sdkJoin({ updates: 'msgpack' }), (error: Error & { code?: number }) => /^INVALID_REQUEST/.test(error.message) && error.code === 400);
  });
});
