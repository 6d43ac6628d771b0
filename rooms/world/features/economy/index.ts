/**
 * The economy feature: inventory, bank, equipment, shops, ground items, death and gravestones, home teleport.
 * Every item move is one item transaction (rooms/world/item-moves.ts); see docs/economy.md for the events.
 */
import type { WorldFeature } from '../../world-api.ts';
import { installBank } from './bank.ts';
import { installDeath } from './death.ts';
import { installEquipment } from './equipment.ts';
import { installHomeTeleport } from './home-teleport.ts';
import { installInventory } from './inventory.ts';
import { installShops } from './shops.ts';
import { installEconomyWorld } from './state.ts';

export { killPlayer, type DeathOutcome } from './death.ts';
export { economyOf } from './state.ts';

/** How often (in ticks) expired ground items and gravestones are swept. */
export const SWEEP_EVERY_TICKS = 2;

export const economy: WorldFeature = {
  name: 'economy',
  install(world) {
    const state = installEconomyWorld(world);
    installInventory(world);
    installEquipment(world);
    installBank(world);
    installShops(world);
    installDeath(world);
    installHomeTeleport(world);
    world.onStart(() => state.load());
    world.onTick((tick) => {
      if (tick % SWEEP_EVERY_TICKS === 0) state.sweep(Date.now());
    });
  },
};
