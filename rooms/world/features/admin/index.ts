/**
 * The admin area: chat commands for sessions elevated with `/admin <code>` (player.isAdmin): /teleport x z, /give itemId qty,
 * /setlevel skill level, /kick name, /spawn npcId. Each use is audit-logged (a structured `admin_command` line with
 * the admin, the real actor — the player's own token, an agent token, or an agent speaking through REST —, the
 * command and its outcome). Refused with NOT_ADMIN unless the session is elevated *and* the one acting now may hold
 * the elevation (session-rights.ts: a player token of the principal that elevated; never an agent). Available only
 * when ADMIN_CODE is configured (otherwise, like every unknown command, UNKNOWN_COMMAND, and nothing is logged).
 */
import { CloseCode } from '@colyseus/core';
import { addItems } from '../../../../src/game/inventory.ts';
import { MAX_STACK } from '../../../../src/game/quantity.ts';
import { TENTHS_PER_POINT } from '../../../../src/game/experience.ts';
import { MAX_LEVEL, SKILLS, xpForLevel, type Skill } from '../../../../src/game/skills.ts';
import { agentActor } from '../../../../src/agents/actor.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { moveItems } from '../../item-moves.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { CommandHandler, WorldApi } from '../../world-api.ts';
import { defineArea } from '../../area.ts';
import { holdsElevation, sessionIdentity } from '../session-rights.ts';
import { combatWorlds } from '../skills/combat.ts';
import { afterLevelChange, saveSkills, skillBooks } from '../../skill-book.ts';

function integer(raw: string | undefined, name: string, min: number, max: number): number {
  const value = Number(raw);
  if (raw === undefined || !/^-?\d+$/.test(raw) || value < min || value > max) {
    throw new GameError('INVALID_ARGUMENT', `${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/** Who really sent the command: an agent through REST, the session's token (player or agent), with its token id. */
function actorOf(player: OnlinePlayer): Record<string, unknown> {
  const agent = agentActor();
  if (agent) return { actor: 'agent', agentId: agent.agentId };
  const identity = sessionIdentity(player);
  return { actor: identity?.scope === 'agent' ? 'agent_token' : 'player', tokenId: identity?.tokenId };
}

function audit(world: WorldApi, player: OnlinePlayer, command: string, args: string[], outcome: string, details: Record<string, unknown> = {}): void {
  world.context().logger.info({ audit: 'admin_command', adminCharacterId: player.id, adminAccountId: player.accountId, adminName: player.name, ...actorOf(player), command, args, outcome, ...details }, `admin /${command} ${outcome}`);
}

function adminCommand(name: string, run: (world: WorldApi, player: OnlinePlayer, args: string[]) => Promise<Record<string, unknown>> | Record<string, unknown>): CommandHandler {
  return async (world, player, args) => {
    // Without ADMIN_CODE the admin commands do not exist.
    if (!world.context().config.adminCode) throw new GameError('UNKNOWN_COMMAND', `Unknown command /${name}`);
    if (!holdsElevation(player)) {
      audit(world, player, name, args, 'refused');
      throw new GameError('NOT_ADMIN', `/${name} needs admin access (/admin <code>)`);
    }
    try {
      const details = await run(world, player, args);
      audit(world, player, name, args, 'done', details);
      player.client.send('admin:done', { command: name, ...details });
    } catch (error) {
      audit(world, player, name, args, 'failed', { code: error instanceof GameError ? error.code : 'INTERNAL_ERROR' });
      throw error;
    }
  };
}

export const admin = defineArea({
  name: 'admin',
  messages: {},
  sends: ['admin:done', 'player:sync', 'skill:xp', 'player:kicked'],
  commands: {
    teleport: adminCommand('teleport', (world, player, [x, z]) => {
      const tile = { x: integer(x, 'x', 0, world.data.world.width - 1), z: integer(z, 'z', 0, world.data.world.depth - 1) };
      if (world.blocked.isBlocked(tile.x, tile.z)) throw new GameError('BLOCKED', 'That tile cannot be stood on');
      world.movePlayer(player, tile);
      player.client.send('player:sync', player.sync());
      return { x: tile.x, z: tile.z };
    }),

    give: adminCommand('give', async (world, player, [itemId, qty]) => {
      if (!itemId || !world.data.itemsById.has(itemId)) throw new GameError('UNKNOWN_ITEM', `No item '${String(itemId)}'`);
      const quantity = qty === undefined ? 1 : integer(qty, 'quantity', 1, MAX_STACK);
      // An explicit item source: one transaction, audit-logged above.
      await moveItems(world, [player.id], async (_tx, loaded) => {
        const containers = loaded.get(player.id)!;
        const added = addItems(containers.inventory, world.data.itemsById, [{ itemId, quantity }]);
        if (!added.ok) throw new GameError(added.code, added.message);
        return { value: null, write: new Map([[player.id, { ...containers, inventory: added.value }]]) };
      });
      return { itemId, quantity, source: 'admin_give' };
    }),

    setlevel: adminCommand('setlevel', async (world, player, [skillName, raw]) => {
      const skill = SKILLS.find((s) => s === skillName?.toLowerCase()) as Skill | undefined;
      if (!skill) throw new GameError('UNKNOWN_SKILL', `No skill '${String(skillName)}'`);
      const level = integer(raw, 'level', skill === 'constitution' ? 10 : 1, MAX_LEVEL);
      const book = skillBooks.of(player);
      const gained = level - book.levels[skill];
      book.levels[skill] = level;
      book.xp[skill] = xpForLevel(level) * TENTHS_PER_POINT;
      book.thirds[skill] = 0;
      afterLevelChange(world, player, skill, gained);
      await saveSkills(world, player, true);
      player.client.send('skill:xp', { skill, amount: 0, xp: xpForLevel(level), level });
      return { skill, level };
    }),

    kick: adminCommand('kick', (world, _player, args) => {
      const name = args.join(' ').trim().toLowerCase();
      const target = [...world.players()].find((p) => p.name.toLowerCase() === name);
      if (!target) throw new GameError('PLAYER_OFFLINE', 'No such player online');
      target.client.send('player:kicked', { reason: 'kicked by an admin' });
      target.removedFor = 'kicked';
      target.client.leave(CloseCode.CONSENTED); // a leave with no seat kept for reconnection
      return { characterId: target.id, name: target.name };
    }),

    spawn: adminCommand('spawn', (world, player, [npcId]) => {
      const entity = combatWorlds.of(world).spawn(npcId ?? '', player.x, player.z);
      return { id: entity.id, npcId: entity.state.npcId, x: entity.x, z: entity.z };
    }),
  },
});
