import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { worldEconomy } from '../../rooms/world/features/economy/state.ts';
import { killPlayer } from '../../rooms/world/features/economy/death.ts';
import type { Database } from '../../src/db/database.ts';
import { Character, User } from '../../src/db/entities/index.ts';
import { deleteExpiredGroundItems, insertGroundItems, loadGroundItems } from '../../src/db/ground-items.ts';
import { insertDeathLock, loadOpenGravestones } from '../../src/db/player-deaths.ts';
import { transaction } from '../../src/db/transaction.ts';
import type { Gravestone } from '../../src/game/death.ts';
import type { GroundItem } from '../../src/game/ground-items.ts';
import { openTestDatabase, uniqueName } from '../helpers/database.ts';
import { jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ok, refusal, seededPlayer, stack, worldRoomOf } from './support.ts';

const TILE_SIZE = 4;
const HOUR = 3_600_000;

function groundItem(x: number, z: number, ownerId: string | null, expiresAt = Date.now() + HOUR): GroundItem {
  const now = Date.now();
  return { id: randomUUID(), itemId: 'coins', quantity: 3, x, z, ownerId, droppedAt: now, publicAt: now, expiresAt };
}

function gravestone(ownerId: string, x: number, z: number): Gravestone {
  const now = Date.now();
  return { id: randomUUID(), ownerId, x, z, items: [stack('bread')], createdAt: now, expiresAt: now + HOUR };
}

/** World numbers no running server uses, so a PostgreSQL database shared by other tests holds no rows of them. */
function unusedWorlds(): [number, number] {
  const a = 1_000_000 + randomInt(1_000_000_000);
  return [a, a + 1];
}

const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((r) => r.id).sort();

describe('ground items and gravestones belong to their world: the stores @db', () => {
  let db: Database;
  let characterId: string;

  before(async () => {
    db = await openTestDatabase();
    const em = db.em.fork();
    const user = em.create(User, { id: randomUUID(), displayName: 'Tester' });
    characterId = em.create(Character, { id: randomUUID(), accountId: user.id, name: uniqueName('w') }).id;
    await em.flush();
  });
  after(() => db?.close());

  it('a world loads only the ground items written with its number', async () => {
    const [a, b] = unusedWorlds();
    const inA = [groundItem(10, 10, null), groundItem(11, 10, characterId)];
    const inB = [groundItem(10, 10, null)];
    await transaction(db, async (tx) => {
      await insertGroundItems(tx, a, inA);
      await insertGroundItems(tx, b, inB);
    });
    assert.deepEqual(ids(await loadGroundItems(db, a)), ids(inA));
    assert.deepEqual(ids(await loadGroundItems(db, b)), ids(inB));
    assert.deepEqual(await loadGroundItems(db, b + 1), []);
    const worlds = await db.em.fork().execute<Array<{ id: string; world: number }>>(
      `select id, world from ground_items where id in (?, ?, ?)`, ids([...inA, ...inB]));
    const expected = [...inA.map((i) => ({ id: i.id, world: a })), ...inB.map((i) => ({ id: i.id, world: b }))];
    const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id);
    assert.deepEqual(worlds.map((r) => ({ id: r.id, world: Number(r.world) })).sort(byId), expected.sort(byId));
  });

  it("a world's expiry sweep deletes only its own rows, even when handed another world's id", async () => {
    const [a, b] = unusedWorlds();
    const expired = Date.now() - 1_000;
    const inA = groundItem(5, 5, null, expired);
    const inB = groundItem(5, 5, null, expired);
    await transaction(db, async (tx) => {
      await insertGroundItems(tx, a, [inA]);
      await insertGroundItems(tx, b, [inB]);
    });
    await transaction(db, (tx) => deleteExpiredGroundItems(tx, b, [inA.id, inB.id], Date.now()));
    assert.deepEqual(ids(await loadGroundItems(db, a)), [inA.id]);
    assert.deepEqual(await loadGroundItems(db, b), []);
  });

  it('a world loads only the open gravestones written with its number', async () => {
    const [a, b] = unusedWorlds();
    const inA = gravestone(characterId, 20, 21);
    const inB = gravestone(characterId, 20, 21);
    await transaction(db, async (tx) => {
      await insertDeathLock(tx, a, inA, TILE_SIZE, Date.now());
      await insertDeathLock(tx, b, inB, TILE_SIZE, Date.now());
    });
    const loadedA = await loadOpenGravestones(db, a, TILE_SIZE);
    assert.deepEqual(loadedA.map((g) => g.gravestone.id), [inA.id]);
    assert.deepEqual({ x: loadedA[0].gravestone.x, z: loadedA[0].gravestone.z }, { x: 20, z: 21 });
    assert.deepEqual((await loadOpenGravestones(db, b, TILE_SIZE)).map((g) => g.gravestone.id), [inB.id]);
    assert.deepEqual(await loadOpenGravestones(db, b + 1, TILE_SIZE), []);
  });
});

describe('ground items and gravestones belong to their world: a running world @db', function () {
  this.timeout(90_000);
  let dataDir: string;
  let server: TestServer | undefined;

  before(() => { dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-worlds-ground-')); });
  after(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () => ({ PGLITE_DATA_DIR: path.join(dataDir, 'db'), JWT_SECRET: 'ground-per-world-secret' });
  const SPOT = { x: 101, z: 101 };

  it("writes drops and gravestones with the world's number, and after a restart shows and hands out only its own", async () => {
    server = await startTestServer(env());
    const p = await seededPlayer(server, SPOT, {
      inventory: [stack('coins', 40), stack('bronze_sword'), stack('bread'), stack('bronze_dagger'), stack('feather', 5), stack('bread')],
    });
    const room = worldRoomOf(p.client);
    const dropped = await ok(p.client, 'inventory:drop', { slot: 0, quantity: 40 }, 'inventory:dropped');
    const { gravestone: grave } = await killPlayer(room, room.player(p.characterId)!);
    assert.ok(grave, 'what was not kept went into a gravestone');
    const db = () => server!.context.db;
    const [droppedRow] = await db().em.fork().execute<Array<{ world: number }>>('select world from ground_items where id = ?', [dropped.data.groundItemId]);
    const [graveRow] = await db().em.fork().execute<Array<{ world: number }>>('select world from player_deaths where id = ?', [grave.id]);
    assert.equal(Number(droppedRow.world), room.worldNumber);
    assert.equal(Number(graveRow.world), room.worldNumber);

    // Rows of another world, at the player's home tile, owned by the player: a world that loaded them would hand them out.
    const [other] = unusedWorlds();
    const home = room.data.world.home;
    const foreignItem = groundItem(home.x, home.z, p.characterId);
    const foreignGrave = gravestone(p.characterId, home.x, home.z);
    await transaction(db(), async (tx) => {
      await insertGroundItems(tx, other, [foreignItem]);
      await insertDeathLock(tx, other, foreignGrave, room.data.world.tileSize, Date.now());
    });
    p.client.close();
    await server.close();

    server = await startTestServer(env());
    // The owner comes back (at home, where it respawned): it stands on the foreign rows' tile.
    const owner = await jsonPlayer(server, p.account, p.characterId);
    await owner.waitFor('player:sync');
    const restarted = worldRoomOf(owner);
    const economy = worldEconomy.of(restarted);
    const rowsIn = async (table: string, id: string) => Number((await db().em.fork().execute<Array<{ world: number }>>(
      `select world from ${table} where id = ?`, [id]))[0].world);
    for (const id of [dropped.data.groundItemId, foreignItem.id]) {
      assert.equal(economy.ground.has(id), (await rowsIn('ground_items', id)) === restarted.worldNumber, `ground item ${id}`);
    }
    for (const id of [grave.id, foreignGrave.id]) {
      assert.equal(economy.gravestones.has(id), (await rowsIn('player_deaths', id)) === restarted.worldNumber, `gravestone ${id}`);
    }
    assert.ok(!economy.ground.has(foreignItem.id) && !economy.gravestones.has(foreignGrave.id));

    // Its owner, standing on their tile, still cannot take them: this world does not know them.
    assert.equal(await refusal(owner, 'groundItem:pickup', { groundItemId: foreignItem.id }), 'NOT_FOUND');
    assert.equal(await refusal(owner, 'gravestone:claim', { gravestoneId: foreignGrave.id }), 'NOT_FOUND');
    const [stillThere] = await db().em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from ground_items where id = ?', [foreignItem.id]);
    assert.equal(Number(stillThere.n), 1);
    owner.close();
  });
});
