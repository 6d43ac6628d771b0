/**
 * An identity verified once, at the /ws `authenticate` (or the upgrade's Authorization header), handed on with the
 * Colyseus auth context of every join the connection makes, so a room's onAuth need not verify (and count) the
 * token again. The /ws transport sets it; the rooms read it. A symbol: nothing from the network can set it.
 */
export const VERIFIED_IDENTITY = Symbol('verifiedIdentity');

/** What the transport knows of a verified caller (an auth Identity satisfies it). */
export interface VerifiedIdentity {
  accountId: string;
  roles: readonly string[];
  characterId?: string;
}
