import { Agent, PlayerProfile } from './agent.ts';
import { Character } from './character.ts';
import { BankItem, BankTab, GroundItemRow } from './economy.ts';
import { EquipmentSlot, InventorySlot, Item } from './items.ts';
import { QuestProgress } from './quests.ts';
import { FriendRequest, Friendship, IgnoreEntry } from './social.ts';
import { TradeAudit } from './trade-audit.ts';
import { User } from './user.ts';
import { CharacterWorld, NpcKill, OpenWorld, PlayerDeath, PlayerSession, WorldChunk } from './world.ts';

export * from './agent.ts';
export * from './character.ts';
export * from './economy.ts';
export * from './items.ts';
export * from './quests.ts';
export * from './social.ts';
export * from './trade-audit.ts';
export * from './user.ts';
export * from './world.ts';

export const ENTITIES = [
  User, Character, Item, InventorySlot, EquipmentSlot, WorldChunk, PlayerSession, PlayerDeath, NpcKill,
  Friendship, FriendRequest, IgnoreEntry, TradeAudit, BankTab, BankItem, GroundItemRow,
  Agent, PlayerProfile, QuestProgress, OpenWorld, CharacterWorld,
];
