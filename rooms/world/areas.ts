/**
 * Every area of the world, in install order (hooks and tick work run in this order). message-table.ts combines
 * their event tables; docs/architecture.md lists the result.
 */
import type { WorldArea } from './area.ts';
import type { WorldFeature } from './world-api.ts';
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
import { skills } from './features/skills/index.ts';
import { trade } from './features/trade-requests.ts';

// TRANSITION (issue #18): features not yet in the area shape; removed once every feature is an area.
const legacy = (feature: WorldFeature): WorldArea => ({ name: feature.name, messages: {}, sends: [], install: (world) => feature.install(world) });

export const WORLD_AREAS: readonly WorldArea[] = [
  movement, chat,
  // The economy: death comes last so its expiry sweep runs after the shops' restock and the teleport casts.
  inventory, equipment, bank, shops, teleport, death,
  agents, trade, ...[skills].map(legacy), quests, sessionRights,
];
