/** The kill count per character and NPC (`npc_kills`), written in the transaction that places the NPC's drop. */
import type { Transaction } from './transaction.ts';

/** Counts one kill of `npcId` by the character (a first kill creates the row). */
export async function recordNpcKill(tx: Transaction, characterId: string, npcId: string, at: Date): Promise<void> {
  await tx.execute(
    `insert into npc_kills (character_id, npc_id, kill_count, last_kill_at) values (?, ?, 1, ?)
     on conflict (character_id, npc_id) do update set kill_count = npc_kills.kill_count + 1, last_kill_at = excluded.last_kill_at`,
    [characterId, npcId, at.toISOString()],
  );
}
