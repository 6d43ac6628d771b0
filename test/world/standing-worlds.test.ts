/**
 * The standing worlds (docs/worlds.md "Opening and closing"): numbers 1…WORLDS_MIN never close, however they were
 * opened, and a world being reopened by the keeper is where entries go. Found by the database-cut suite on a slow
 * machine: the player came back into world 2 because its entry opened a world of its own while the keeper was
 * reopening world 1.
 *
 * The keeper's own check runs every half lease time; the lease here is long, so the test decides when world 1 is
 * reopened.
 */
import assert from 'node:assert/strict';
import { matchMaker } from '@colyseus/core';
import { anonymousAccount, createCharacterRow } from '../helpers/players.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { followStandingWorlds, listWorlds, standingWorld, WORLD_ROOM } from '../../rooms/entry/world-choice.ts';
import { WORLD_NUMBER_HELD } from '../../src/db/worlds.ts';
import { until } from '../helpers/until.ts';

/** For checks that ask the database or Redis: asked less often than `until` asks. */
const settled = (check: () => Promise<boolean>, what: string) => until(check, what, 10_000, 50);

describe(`the standing worlds (${databaseUnderTest()}) @db`, function () {
  this.timeout(60_000);
  let server: TestServer;
  const open: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer({ WORLDS_MIN: '1', WORLD_IDLE_CLOSE_SECONDS: '1', WORLD_LEASE_SECONDS: '300' });
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  after(async () => {
    await server?.close();
  });

  /** Closes world 1 as a lost world closes: its room goes, and its row with it. */
  async function loseWorldOne(): Promise<void> {
    const [listing] = await listWorlds();
    assert.equal(listing?.metadata?.world, 1, 'world 1 runs before the test closes it');
    await matchMaker.getLocalRoomById(listing.roomId)?.disconnect();
    await settled(async () => (await listWorlds()).length === 0, 'world 1 to close');
  }

  /** A signed-in /ws client with a character, that has asked to enter a world of the server's choosing. */
  async function askToEnter(): Promise<JsonWsClient> {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId);
    const client = await JsonWsClient.connect(server.wsUrl);
    open.push(client);
    client.send('authenticate', { token: account.token });
    assert.equal((await client.waitFor('authResult')).data.success, true);
    client.send('world:enter', { characterId: character.id });
    return client;
  }

  it('an entry that finds no world while world 1 is being reopened waits for it and enters it, not a world of its own', async () => {
    await loseWorldOne();
    let reopened!: () => void;
    const reopening = new Promise<void>((resolve) => (reopened = resolve));
    followStandingWorlds(() => reopening);
    try {
      const client = await askToEnter();
      const early = await client.waitFor('world:joined', () => true, 700).then(() => 'joined', () => 'waiting');
      assert.equal(early, 'waiting', 'the entry waits while the standing world is being reopened');
      await matchMaker.createRoom(WORLD_ROOM, standingWorld(1));
      reopened();
      const joined = await client.waitFor('world:joined');
      assert.equal(joined.data.world, 1);
    } finally {
      followStandingWorlds(() => undefined);
    }
    const worlds = await listWorlds();
    assert.deepEqual(worlds.map((listing) => [listing.metadata?.world, listing.metadata?.standing]), [[1, true]]);
  });

  it('a world that an entry opened under number 1 is standing: the keeper opens no second one, and it stays open empty', async () => {
    await loseWorldOne();
    const client = await askToEnter();
    assert.equal((await client.waitFor('world:joined')).data.world, 1);
    await assert.rejects(matchMaker.createRoom(WORLD_ROOM, standingWorld(1)), (error: { code?: unknown }) => error.code === WORLD_NUMBER_HELD);
    assert.deepEqual((await listWorlds()).map((listing) => [listing.metadata?.world, listing.metadata?.standing]), [[1, true]]);

    client.send('world:leave', {});
    await settled(async () => (await listWorlds())[0]?.clients === 0, 'the player to leave');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const [world] = await listWorlds();
    assert.equal(world?.metadata?.world, 1, 'world 1 is still listed 2.5 s after it emptied (WORLD_IDLE_CLOSE_SECONDS=1)');
    assert.equal(world?.metadata?.status, 'open');
  });
});
