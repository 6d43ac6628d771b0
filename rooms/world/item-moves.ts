/**
 * Moving items from the world: every move goes through one item transaction (src/db/item-transaction.ts),
 * and the players' in-memory containers are replaced by what was committed — never edited ahead of the commit.
 */
import { loadContainers, runItemTransaction, type ContainersById, type ItemTransactionOptions, type ItemWork } from '../../src/db/item-transaction.ts';
import { session, type Transaction } from '../../src/db/transaction.ts';
import type { OnlinePlayer } from './online-player.ts';
import type { WorldApi } from './world-api.ts';

/** Loads a joining player's containers from the database. */
export async function loadPlayerContainers(world: WorldApi, player: OnlinePlayer): Promise<void> {
  const loaded = await loadContainers(session(world.context().db), [player.id], false);
  player.containers = loaded.get(player.id)!;
}

export interface MoveOptions<T> extends ItemTransactionOptions {
  /**
   * Applies the rest of the committed outcome to memory (e.g. the health eating restored) before the players'
   * `player:sync` goes out, so that one sync shows all of it.
   */
  afterCommit?: (value: T) => void;
}

/**
 * Runs `work` over the locked containers of the characters, commits, then updates the online ones in memory
 * and sends them `player:sync`. A refusal (a GameError thrown by `work` or by the fence) reaches the caller as it is.
 */
export async function moveItems<T>(
  world: WorldApi,
  characterIds: readonly string[],
  work: (tx: Transaction, loaded: ContainersById) => Promise<ItemWork<T>>,
  options: MoveOptions<T> = {},
): Promise<T> {
  const { afterCommit, ...transactionOptions } = options;
  // Fenced by the world's lease: the characters in this world must be claimed by it (src/db/worlds.ts).
  const claimed = characterIds.filter((id) => world.player(id) !== undefined);
  const committed = await runItemTransaction(world.context().db, characterIds, work, { ...transactionOptions, fence: world.fence(), claimed });
  afterCommit?.(committed.value);
  for (const [id, containers] of committed.containers) {
    const player = world.player(id);
    if (!player) continue;
    // The bank is not kept in memory: it is read from the database whenever it is shown or changed.
    player.containers = { inventory: containers.inventory, equipment: containers.equipment };
    player.client.send('player:sync', player.sync());
  }
  return committed.value;
}
