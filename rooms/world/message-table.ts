/**
 * The one message table of the world: every area of the game, in install order, and the client events they
 * handle combined into one map. "Who handles event X" is answered here (docs/architecture.md lists the table,
 * generated from it; test/architecture/message-table.test.ts keeps both true).
 */
import type { z } from 'zod';
import type { MessageEntry, WorldArea } from './area.ts';
import type { CommandHandler } from './world-api.ts';

export interface MessageRoute {
  readonly area: string;
  readonly entry: MessageEntry<z.ZodType>;
}

/** Combines the areas' event tables; an event or command claimed by two areas is a programming error. */
export function combineAreas(areas: readonly WorldArea[]): { messages: Map<string, MessageRoute>; commands: Map<string, CommandHandler> } {
  const messages = new Map<string, MessageRoute>();
  const commands = new Map<string, CommandHandler>();
  for (const area of areas) {
    for (const [type, entry] of Object.entries(area.messages)) {
      const taken = messages.get(type);
      if (taken) throw new Error(`event ${type} is handled by both ${taken.area} and ${area.name}`);
      messages.set(type, { area: area.name, entry });
    }
    for (const [name, handler] of Object.entries(area.commands ?? {})) {
      if (commands.has(name)) throw new Error(`command /${name} is claimed twice (again by ${area.name})`);
      commands.set(name, handler);
    }
  }
  return { messages, commands };
}
