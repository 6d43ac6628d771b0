/**
 * Seeds load-test characters: one account each, a character at a given tile with an optional inventory, and a
 * server token signed with the benchmark server's secret. Walkers are spread over free tiles of the bundled world
 * (so each sees a realistic neighbourhood rather than everyone at the home tile).
 */
import { randomUUID } from 'node:crypto';
import { TokenService } from '../../src/auth/tokens.ts';
import type { Config } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import type { GameData } from '../../src/manifests/game-data.ts';

export interface SeededWalker {
  characterId: string;
  /** The character's name (how a run's summary names the bot). */
  name: string;
  token: string;
  x: number;
  z: number;
}

export interface CharacterSpec {
  x: number;
  z: number;
  /** Stacks from slot 0 on; coins also set the characters.coins column the server keeps equal to them. */
  inventory?: Array<{ itemId: string; quantity: number }>;
}

/** A small deterministic generator, so runs place walkers the same way. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` free tiles spread over the world; with `pairs`, each tile's east neighbour is free too. */
export function freeTiles(data: GameData, count: number, seed = 42, pairs = false): Array<{ x: number; z: number }> {
  const random = seededRandom(seed);
  const blocked = computeBlockedTiles(data);
  const tiles: Array<{ x: number; z: number }> = [];
  const margin = 3;
  while (tiles.length < count) {
    const x = margin + Math.floor(random() * (data.world.width - 2 * margin));
    const z = margin + Math.floor(random() * (data.world.depth - 2 * margin));
    if (blocked.isBlocked(x, z) || (pairs && blocked.isBlocked(x + 1, z))) continue;
    tiles.push({ x, z });
  }
  return tiles;
}

export async function seedWalkers(db: Database, data: GameData, config: Config, secret: string, count: number, seed = 42): Promise<SeededWalker[]> {
  return seedCharacters(db, config, secret, freeTiles(data, count, seed));
}

export async function seedCharacters(db: Database, config: Pick<Config, 'jwtIssuer' | 'jwtAudience'>, secret: string, specs: CharacterSpec[]): Promise<SeededWalker[]> {
  const tokens = new TokenService({ secret, issuer: config.jwtIssuer, audience: config.jwtAudience, ttlSeconds: 4 * 3600 });
  const run = randomUUID().slice(0, 4);
  const walkers: SeededWalker[] = specs.map((spec) => ({ characterId: randomUUID(), name: '', token: '', x: spec.x, z: spec.z }));
  const connection = db.em.getConnection();
  for (let start = 0; start < walkers.length; start += 500) {
    const batch = walkers.slice(start, start + 500);
    const users = batch.map((walker, i) => {
      walker.name = `W${(start + i).toString(36)}${run}`;
      return { accountId: randomUUID(), walker, name: walker.name };
    });
    await connection.execute(
      `insert into users (id, display_name, roles, is_temporary, created_at) values ${users.map(() => `(?, ?, '["player"]', false, now())`).join(', ')}`,
      users.flatMap((u) => [u.accountId, u.name]),
    );
    await connection.execute(
      `insert into characters (id, account_id, name, position_x, position_z, created_at, last_login_at) values ${users.map(() => '(?, ?, ?, ?, ?, now(), now())').join(', ')}`,
      users.flatMap((u) => [u.walker.characterId, u.accountId, u.name, u.walker.x, u.walker.z]),
    );
    const stacks = batch.flatMap((walker, i) => (specs[start + i].inventory ?? []).map((stack, slot) => ({ characterId: walker.characterId, slot, ...stack })));
    if (stacks.length > 0) {
      await connection.execute(
        `insert into inventory (character_id, slot, item_id, quantity) values ${stacks.map(() => '(?, ?, ?, ?)').join(', ')}`,
        stacks.flatMap((s) => [s.characterId, s.slot, s.itemId, s.quantity]),
      );
      const coins = stacks.filter((s) => s.itemId === 'coins');
      for (const stack of coins) await connection.execute('update characters set coins = ? where id = ?', [stack.quantity, stack.characterId]);
    }
    for (const user of users) {
      user.walker.token = tokens.sign({ accountId: user.accountId, roles: ['player'], scope: 'player' }).token;
    }
  }
  return walkers;
}
