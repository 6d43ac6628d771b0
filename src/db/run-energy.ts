/**
 * A character's run energy (`characters.run_energy`, hundredths of a percent; src/game/run-energy.ts): read when it
 * enters a world, written when it leaves, so leaving or hopping does not refill it. Safe to lose in a crash (the
 * character then starts from what was last written).
 */
import type { Database } from './database.ts';
import { heldBy, type WorldFence } from './worlds.ts';

/** The stored energy, or undefined when the character no longer exists. */
export async function loadRunEnergy(db: Database, characterId: string): Promise<unknown> {
  const [row] = await db.em.fork().execute<Array<{ run_energy: unknown }>>('select run_energy from characters where id = ?', [characterId]);
  return row?.run_energy;
}

/** Writes it while the world of `fence` holds the character (src/db/worlds.ts). */
export async function writeRunEnergy(db: Database, fence: WorldFence, characterId: string, energy: number): Promise<void> {
  const held = heldBy(fence, 'characters');
  await db.em.fork().execute(`update characters set run_energy = ? where id = ? and ${held.sql}`, [energy, characterId, ...held.params]);
}
