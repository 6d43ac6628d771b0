/**
 * Every area of the world, in install order (hooks and tick work run in this order). message-table.ts combines
 * their event tables; docs/architecture.md lists the result.
 */
import type { WorldArea } from './area.ts';
import { agents } from './features/agents.ts';
import { chat } from './features/chat.ts';
import { bank } from './features/economy/bank.ts';
import { death } from './features/economy/death.ts';
import { equipment } from './features/economy/equipment.ts';
import { teleport } from './features/economy/home-teleport.ts';
import { inventory } from './features/economy/inventory.ts';
import { shops } from './features/economy/shops.ts';
import { movement } from './features/movement.ts';
import { quests } from './features/quests/index.ts';
import { sessionRights } from './features/session-rights.ts';
import { admin } from './features/admin/index.ts';
import { npcs } from './features/npcs/wander.ts';
import { combat } from './features/skills/combat.ts';
import { skills } from './features/skills/index.ts';
import { prayer } from './features/skills/prayer.ts';
import { resources } from './features/skills/work.ts';
import { social } from './features/social/index.ts';
import { trade } from './features/trade-requests.ts';
import { worldHop } from './features/hop.ts';

export const WORLD_AREAS: readonly WorldArea[] = [
  movement, chat,
  // The economy: death comes last so its expiry sweep runs after the shops' restock and the teleport casts.
  inventory, equipment, bank, shops, teleport, death,
  agents, trade,
  // The game on the tick: nodes and fires, the NPCs' fights, their wandering, then each player's activity step.
  resources, combat, npcs, skills, prayer, social, admin,
  quests, sessionRights, worldHop,
];
