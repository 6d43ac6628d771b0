import type { Constructor } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import { Migration20261122042204 } from './Migration20261122042204.ts';
import { Migration20261122061000Agents } from './Migration20261122061000Agents.ts';
import { Migration20261122063000Economy } from './Migration20261122063000Economy.ts';
import { Migration20261123090000PrayerPoints } from './Migration20261123090000PrayerPoints.ts';
import { Migration20261123100000Quests } from './Migration20261123100000Quests.ts';
import { Migration20261124090000LockItemOwners } from './Migration20261124090000LockItemOwners.ts';
import { Migration20261127030000Worlds } from './Migration20261127030000Worlds.ts';
import { Migration20261128040000WorldLeases } from './Migration20261128040000WorldLeases.ts';
import { Migration20261201090000XpTenths } from './Migration20261201090000XpTenths.ts';
import { Migration20261201100000RunEnergy } from './Migration20261201100000RunEnergy.ts';

/** Every migration in order. New ones are created with `npm run migration:create` and listed here. */
export const MIGRATIONS: Array<{ name: string; class: Constructor<Migration> }> = [
  { name: 'Migration20261122042204', class: Migration20261122042204 },
  { name: 'Migration20261122061000Agents', class: Migration20261122061000Agents },
  { name: 'Migration20261122063000Economy', class: Migration20261122063000Economy },
  { name: 'Migration20261123090000PrayerPoints', class: Migration20261123090000PrayerPoints },
  { name: 'Migration20261123100000Quests', class: Migration20261123100000Quests },
  { name: 'Migration20261124090000LockItemOwners', class: Migration20261124090000LockItemOwners },
  { name: 'Migration20261127030000Worlds', class: Migration20261127030000Worlds },
  { name: 'Migration20261128040000WorldLeases', class: Migration20261128040000WorldLeases },
  { name: 'Migration20261201090000XpTenths', class: Migration20261201090000XpTenths },
  { name: 'Migration20261201100000RunEnergy', class: Migration20261201100000RunEnergy },
];
