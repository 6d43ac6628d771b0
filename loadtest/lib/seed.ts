/**
 * Seeds walkers for a benchmark: accounts and characters spread over free tiles of the bundled world (so each
 * sees a realistic neighbourhood rather than everyone at the home tile), and server tokens signed with the
 * benchmark server's secret.
 */
import { randomUUID } from 'node:crypto';
import { TokenService } from '../../src/auth/tokens.ts';
import type { Config } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import type { GameData } from '../../src/manifests/game-data.ts';

export interface SeededWalker {
  characterId: string;
  token: string;
  x: number;
  z: number;
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

export async function seedWalkers(db: Database, data: GameData, config: Config, secret: string, count: number, seed = 42): Promise<SeededWalker[]> {
  const random = seededRandom(seed);
  const blocked = computeBlockedTiles(data);
  const tokens = new TokenService({ secret, issuer: config.jwtIssuer, audience: config.jwtAudience, ttlSeconds: 4 * 3600 });
  const run = randomUUID().slice(0, 4);
  const walkers: SeededWalker[] = [];
  const margin = 3;
  while (walkers.length < count) {
    const x = margin + Math.floor(random() * (data.world.width - 2 * margin));
    const z = margin + Math.floor(random() * (data.world.depth - 2 * margin));
    if (blocked.isBlocked(x, z)) continue;
    walkers.push({ characterId: randomUUID(), token: '', x, z });
  }
  const connection = db.em.getConnection();
  for (let start = 0; start < walkers.length; start += 500) {
    const batch = walkers.slice(start, start + 500);
    const users = batch.map((walker, i) => ({ accountId: randomUUID(), walker, name: `W${(start + i).toString(36)}${run}` }));
    await connection.execute(
      `insert into users (id, display_name, roles, is_temporary, created_at) values ${users.map(() => `(?, ?, '["player"]', false, now())`).join(', ')}`,
      users.flatMap((u) => [u.accountId, u.name]),
    );
    await connection.execute(
      `insert into characters (id, account_id, name, position_x, position_z, created_at, last_login_at) values ${users.map(() => '(?, ?, ?, ?, ?, now(), now())').join(', ')}`,
      users.flatMap((u) => [u.walker.characterId, u.accountId, u.name, u.walker.x, u.walker.z]),
    );
    for (const user of users) {
      user.walker.token = tokens.sign({ accountId: user.accountId, roles: ['player'], scope: 'player' }).token;
    }
  }
  return walkers;
}
