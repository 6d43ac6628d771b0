// What a click on the map can do: the options for a tile, an entity or a station, each one the event the docs
// name for it. Options that need the player close by (talking, banking, shops, picking up, claiming, trading:
// "within 2 tiles") carry `near`; the page walks there first (WalkThenAct). Gathering, fighting and praying walk
// by themselves on the server. No DOM.

import { distanceToRect } from './camera.js';

/** "Within 2 tiles" (Chebyshev) for banks, shops, dialogue, ground items, gravestones and trade requests. */
export const REACH = 2;

const GATHER_VERB = { woodcutting: 'Chop down', mining: 'Mine', fishing: 'Fish at' };

/**
 * @typedef {{ label: string, event?: string, data?: object, near?: { kind?: string, id?: string, rect?: object },
 *   local?: 'examine' | 'whisper', text?: string, name?: string }} Option
 *   local: done by the page itself (examine text, starting a private message)
 */

function walkHere(x, z) {
  return { label: 'Walk here', event: 'player:move', data: { x, z } };
}

/**
 * @param {{ type: 'tile', x: number, z: number } | { type: 'entity', entity: any } | { type: 'station', station: any }} target
 * @param {{ world: any, selfId?: string, run?: boolean }} context world: from buildWorldData
 * @returns {Option[]} the default (left-click) option first
 */
export function optionsFor(target, context) {
  const { world } = context;
  const walk = (x, z) => ({ ...walkHere(x, z), data: { x, z, ...(context.run ? { run: true } : {}) } });
  if (target.type === 'tile') return [walk(target.x, target.z)];
  if (target.type === 'station') {
    const { station } = target;
    const options = [];
    if (station.type === 'bank') options.push({ label: `Use ${station.name}`, event: 'bank:open', data: {}, near: { rect: station.bounds } });
    if (station.type === 'altar') options.push({ label: `Pray at ${station.name}`, event: 'player:action', data: { action: 'pray', targetId: station.id } });
    options.push({ label: `Examine ${station.name}`, local: 'examine', text: `A ${station.name.toLowerCase()}.` });
    return options;
  }
  const { entity } = target;
  const near = { kind: entity.kind, id: entity.id };
  const options = [];
  switch (entity.kind) {
    case 'npc': {
      const kind = world.npcKinds.get(entity.npcId);
      const store = world.storesByNpc.get(entity.npcId);
      const attack = { label: `Attack ${entity.name}`, event: 'player:action', data: { action: 'attack', targetId: entity.id } };
      if (kind?.combat) options.push(attack);
      if (kind?.dialogueId) options.push({ label: `Talk-to ${entity.name}`, event: 'npc:talk', data: { npcId: entity.id }, near });
      if (kind?.role === 'banker') options.push({ label: `Bank with ${entity.name}`, event: 'bank:open', data: {}, near });
      if (store) options.push({ label: `Trade with ${entity.name}`, event: 'shop:open', data: { storeId: store.id }, near });
      options.push({ label: `Examine ${entity.name}`, local: 'examine', text: kind?.examine ?? entity.name });
      break;
    }
    case 'player': {
      if (entity.id === context.selfId) return [walk(entity.x, entity.z)];
      options.push({ label: `Trade with ${entity.name}`, event: 'tradeRequest', data: { targetPlayerId: entity.id }, near });
      if (world.areaAt(entity.x, entity.z)?.pvp) options.push({ label: `Attack ${entity.name}`, event: 'player:action', data: { action: 'attack', targetId: entity.id } });
      options.push({ label: `Add friend ${entity.name}`, event: 'friend:request', data: { characterId: entity.id } });
      options.push({ label: `Message ${entity.name}`, local: 'whisper', name: entity.name });
      options.push({ label: `Ignore ${entity.name}`, event: 'ignore:add', data: { characterId: entity.id } });
      break;
    }
    case 'resource': {
      const kind = world.resourceKinds.get(entity.resourceId);
      const name = kind?.name ?? entity.resourceId;
      options.push({ label: `${GATHER_VERB[kind?.skill] ?? 'Gather'} ${name}`, event: 'player:action', data: { action: 'gather', targetId: entity.id } });
      options.push({ label: `Examine ${name}`, local: 'examine', text: entity.depleted ? `The ${name.toLowerCase()} is depleted for now.` : `A ${name.toLowerCase()}.` });
      break;
    }
    case 'groundItem':
      options.push({ label: `Take ${world.itemName(entity.itemId)}`, event: 'groundItem:pickup', data: { groundItemId: entity.id }, near });
      options.push({ label: `Examine ${world.itemName(entity.itemId)}`, local: 'examine', text: world.items.get(entity.itemId)?.examine ?? world.itemName(entity.itemId) });
      break;
    case 'gravestone':
      if (entity.ownerId === context.selfId) options.push({ label: 'Claim your gravestone', event: 'gravestone:claim', data: { gravestoneId: entity.id }, near });
      options.push({ label: 'Examine gravestone', local: 'examine', text: `The gravestone of ${entity.ownerName ?? 'someone'}.` });
      break;
    default:
      break;
  }
  options.push(walk(entity.x, entity.z));
  return options;
}

/**
 * The walkable tile within `distance` of a rectangle that is nearest to `from` (the player), or undefined; at equal
 * distance, one beside the target rather than on it.
 */
export function approachTile(world, rect, distance, from) {
  let best;
  let bestCost = Infinity;
  for (let z = rect.minZ - distance; z <= rect.maxZ + distance; z++) {
    for (let x = rect.minX - distance; x <= rect.maxX + distance; x++) {
      if (world.isBlocked(x, z)) continue;
      const inside = distanceToRect({ x, z }, rect) === 0;
      const cost = Math.max(Math.abs(x - from.x), Math.abs(z - from.z)) + (inside ? 0 : 0.5);
      if (cost < bestCost) {
        best = { x, z };
        bestCost = cost;
      }
    }
  }
  return best;
}
