/** Helpers for the skills suites: a player whose character columns (levels, health, prayer points) are set first. */
import { setSkillsRng } from '../../rooms/world/features/skills/activity.ts';
import { setWanderRng } from '../../rooms/world/features/npcs/wander.ts';
import { seed, type Seed, type Seeded } from '../economy/support.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** Character columns written before entering, e.g. `{prayer_level: 43, prayer_points: 1}`. */
export type Columns = Record<string, number | null>;

/** A new character at `at` with these items and column values, entered over /ws. */
export async function playerWith(server: TestServer, at: { x: number; z: number }, columns: Columns, items: Seed = {}): Promise<Seeded> {
  const account = await anonymousAccount(server);
  const character = await createCharacterRow(server, account.accountId, at);
  await seed(server.context.db, character.id, items);
  const names = Object.keys(columns);
  for (const name of names) if (!/^[a-z_]+$/.test(name)) throw new Error(`not a column name: ${name}`);
  if (names.length > 0) {
    await server.context.db.em.fork().execute(
      `update characters set ${names.map((n) => `${n} = ?`).join(', ')} where id = ?`,
      [...Object.values(columns), character.id],
    );
  }
  const client = await jsonPlayer(server, account, character.id);
  await client.waitFor('player:sync');
  return { account, characterId: character.id, client };
}

/** A pseudo-random sequence (a linear congruential generator) with values in [0, scale). */
export function sequence(seedValue: number, scale = 1): () => number {
  let state = seedValue >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state / 2 ** 32) * scale;
  };
}

/**
 * A test server for the enclosing describe block, with fixed rolls while it runs: alternating 0 and 0.99 makes
 * every attack land (0 < hit chance) for its maximum damage (0.99 × (max + 1)), and NPCs stay on their spawn
 * tiles. The random sources are put back afterwards.
 */
export function withCombatServer(use: (server: TestServer) => void): void {
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer();
    let n = 0;
    setSkillsRng(() => (n++ % 2 === 0 ? 0 : 0.99));
    setWanderRng(() => 0.99);
    use(server);
  });
  after(async () => {
    setSkillsRng(Math.random);
    setWanderRng(Math.random);
    await server?.close();
  });
}
