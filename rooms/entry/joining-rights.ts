/**
 * The rights checked when a character takes a seat: entering (again) with an identity the /ws adapter verified at
 * `authenticate`, and resuming a held seat. Both re-check the token's rights now (expiry, account, player role, agent
 * revocation, with the current roles): a socket may have outlived its token. Refusals are join refusals.
 */
import { AuthError } from '../../src/auth/errors.ts';
import type { Identity } from '../../src/auth/tokens.ts';
import { gameContext } from '../../src/context.ts';
import { joinRefusal } from '../game-error.ts';

/** The identity's rights, checked again now; a join refusal when they ended. */
export async function recheckJoiningIdentity(identity: Identity): Promise<Identity> {
  try {
    return await gameContext().auth.recheckIdentity(identity);
  } catch (error) {
    if (error instanceof AuthError) throw joinRefusal(error.code, error.message);
    throw error;
  }
}

/** Whether `resumer` may take the held seat of `owner` (an account and character): FORBIDDEN / CHARACTER_NOT_OWNED. */
export function resumeRefusal(owner: { accountId: string; characterId: string }, resumer: Identity): 'forbidden' | 'not-owned' | undefined {
  if (resumer.accountId !== owner.accountId) return 'forbidden';
  // A token bound to one character may not resume another's seat.
  if (resumer.characterId !== undefined && resumer.characterId !== null && resumer.characterId !== owner.characterId) return 'not-owned';
  return undefined;
}
