/**
 * `world:hop {world}`: moving the character to another world (docs/protocol.md "World hopping"). The room checks
 * the hop here (src/game/world-hop.ts: not the same world, not trading, not in a dialogue, not within 10 s of
 * combat; then that the world exists and has room, and that the account has an entry left this minute) and approves
 * it; nothing has changed yet. A /ws connection is moved by its membership (ClientLink.hopWorld →
 * rooms/entry/membership.ts: a consented leave, which saves, then an entry into the world); an SDK client is sent
 * `world:hop {from, world, characterId}` and leaves and joins `world` itself.
 */
import { z } from 'zod';
import { GameError } from '../../../src/game/refusal.ts';
import { hopRefusal } from '../../../src/game/world-hop.ts';
import { clientLink } from '../../client-link.ts';
import { tradeServices } from '../../trade/trade-service.ts';
import { defineArea, on, type HandlerContext } from '../area.ts';
import type { OnlinePlayer } from '../online-player.ts';
import type { WorldApi } from '../world-api.ts';
import { admitWorldEntry, assertEntryLeft } from '../../entry/entry-limit.ts';
import { MAX_WORLD_NUMBER, openWorldWithRoom } from '../../entry/world-choice.ts';
import { openDialogues } from './quests/dialogue-sessions.ts';

const HopRequest = z.object({ world: z.number().int().min(1).max(MAX_WORLD_NUMBER) }).strict();

function assertMayHop(world: WorldApi, player: OnlinePlayer, to: number): void {
  const refusal = hopRefusal({
    from: player.world, to,
    trading: tradeServices.of(world).isTrading(player.id) || player.lock !== undefined,
    inDialogue: openDialogues.of(world).has(player.id),
    lastCombatTick: player.lastCombatTick,
    tick: world.currentTick(),
  });
  if (refusal) throw new GameError(refusal.code, refusal.message, refusal.details);
}

async function hop({ world, player, client }: HandlerContext, { world: to }: z.infer<typeof HopRequest>): Promise<void> {
  assertMayHop(world, player, to);
  await openWorldWithRoom(to);
  const link = clientLink(client);
  // A hop is an entry, refused before anything is left: a /ws hop counts it now (the entries that carry it out do
  // not count again); an SDK client's join will count it, so it is only checked here (rooms/entry/entry-limit.ts).
  if (link) await admitWorldEntry(player.accountId);
  else await assertEntryLeft(player.accountId);
  // The listing and the limit were awaited: a trade request or a hit may have come meanwhile.
  assertMayHop(world, player, to);
  if (link) link.hopWorld({ characterId: player.id, world: to });
  else client.send('world:hop', { from: player.world, world: to, characterId: player.id });
}

export const worldHop = defineArea({
  name: 'world-hop',
  messages: { 'world:hop': on(HopRequest, hop) },
  sends: ['world:hop', 'error'],
});
