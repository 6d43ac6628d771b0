/**
 * The standing worlds (docs/worlds.md "Opening and closing"): numbers 1…WORLDS_MIN never close, however they were
 * opened, and a world being reopened by the keeper is where entries go. Found by the database-cut suite, twice: the
 * player came back into world 2 because its entry opened a world of its own while the keeper was reopening world 1 —
 * first while the keeper opened it, then (on PostgreSQL) while the keeper was still reading which numbers were
 * missing. An entry that finds no world with a free seat now runs the keeper's check first.
 *
 * The server's own check runs every half lease time; the lease here is long, so the test decides when world 1 is
 * reopened.
 */
import assert from 'node:assert/strict';
import { matchMaker } from '@colyseus/core';
import { anonymousAccount, createCharacterRow } from '../helpers/players.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { followStandingWorlds, listWorlds, standingWorld, WORLD_ROOM } from '../../rooms/entry/world-choice.ts';
import { WORLD_NUMBER_HELD } from '../../src/db/worlds.ts';
import { StandingWorlds } from '../../rooms/world/standing-worlds.ts';
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

  /** A signed-in /ws client with a character, and the entry it sends when asked. */
  async function signedIn(): Promise<{ client: JsonWsClient; enter: () => void }> {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId);
    const client = await JsonWsClient.connect(server.wsUrl);
    open.push(client);
    client.send('authenticate', { token: account.token });
    assert.equal((await client.waitFor('authResult')).data.success, true);
    return { client, enter: () => client.send('world:enter', { characterId: character.id }) };
  }

  /** A signed-in /ws client with a character, that has asked to enter a world of the server's choosing. */
  async function askToEnter(): Promise<JsonWsClient> {
    const { client, enter } = await signedIn();
    enter();
    return client;
  }

  it('an entry that finds no world waits for the standing worlds\' check and enters the world 1 it opens, not a world of its own', async () => {
    await loseWorldOne();
    let checked!: () => void;
    const check = new Promise<void>((resolve) => (checked = resolve));
    const serverCheck = followStandingWorlds(() => check);
    try {
      const client = await askToEnter();
      const early = await client.waitFor('world:joined', () => true, 700).then(() => 'joined', () => 'waiting');
      assert.equal(early, 'waiting', 'the entry waits while the standing worlds are checked');
      await matchMaker.createRoom(WORLD_ROOM, standingWorld(1));
      checked();
      const joined = await client.waitFor('world:joined');
      assert.equal(joined.data.world, 1);
    } finally {
      followStandingWorlds(serverCheck);
    }
    const worlds = await listWorlds();
    assert.deepEqual(worlds.map((listing) => [listing.metadata?.world, listing.metadata?.standing]), [[1, true]]);
  });

  it('an entry and a keeper check started within 12 ms of each other, either first: the entry enters the one world 1', async () => {
    // A keeper of the test's own, run as the server's timer runs it. On the old code this failed in 3 runs of 3 on
    // PostgreSQL, once the two started within a millisecond of each other: the entry in world 2, beside the keeper's 1.
    const serverCheck = followStandingWorlds(undefined);
    const keeper = new StandingWorlds({
      db: server.context.db, worldsMin: 1, everyMs: 3_600_000, logger: server.context.logger, lock: (work) => work(),
    });
    try {
      for (let offsetMs = -12; offsetMs <= 12; offsetMs += 1) {
        await loseWorldOne();
        const { client, enter } = await signedIn();
        const check = () => keeper.check();
        const [first, second] = offsetMs < 0 ? [check, enter] : [enter, check];
        const firstDone = first();
        await new Promise((resolve) => setTimeout(resolve, Math.abs(offsetMs)));
        await Promise.all([firstDone, second()]);
        const joined = await client.waitFor('world:joined');
        const worlds = (await listWorlds()).map((listing) => listing.metadata?.world);
        assert.deepEqual([joined.data.world, worlds], [1, [1]], `the keeper's check ${offsetMs} ms after the entry`);
        client.close();
      }
    } finally {
      await keeper.stop();
      followStandingWorlds(serverCheck);
    }
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
