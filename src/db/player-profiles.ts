/**
 * The `player_profiles` row of an account (REST player endpoints): its avatar and its selected (active) character.
 * An account without a row has neither; the first write creates the row.
 */
import { PlayerProfile } from './entities/index.ts';
import type { Transaction } from './transaction.ts';
import { setDisplayName } from './users.ts';

/** The account's profile, or null when it never wrote one. */
export function findPlayerProfile(tx: Transaction, accountId: string): Promise<PlayerProfile | null> {
  return tx.findOne(PlayerProfile, { accountId });
}

/** Makes the character the account's active one, in one transaction. */
export async function selectActiveCharacter(em: Transaction, accountId: string, characterId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const profile = await tx.findOne(PlayerProfile, { accountId });
    if (profile) profile.activeCharacterId = characterId;
    else tx.create(PlayerProfile, { accountId, avatar: null, activeCharacterId: characterId });
  });
}

/** POST /api/v1/player: the display name (on the account) and the avatar (null clears it), in one transaction. */
export async function updatePlayerProfile(em: Transaction, accountId: string, change: { displayName?: string; avatar?: string | null }): Promise<void> {
  await em.transactional(async (tx) => {
    if (change.displayName !== undefined) await setDisplayName(tx, accountId, change.displayName);
    if (change.avatar !== undefined) {
      const profile = await tx.findOne(PlayerProfile, { accountId });
      if (profile) profile.avatar = change.avatar;
      else tx.create(PlayerProfile, { accountId, avatar: change.avatar, activeCharacterId: null });
    }
  });
}
