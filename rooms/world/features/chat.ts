/** `player:chat`: sanitised public chat to players in range, a per-player rate limit, ignore lists, slash commands. */
import { z } from 'zod';
import { MAX_CHAT_LENGTH, sanitizeChat } from '../../../src/game/social.ts';
import { GameError } from '../../../src/game/refusal.ts';
import type { OnlinePlayer } from '../online-player.ts';
import { elevationRefusal, recordElevation } from './session-rights.ts';
import { ChatLimiter } from '../../../src/game/chat-limit.ts';
import { PlayerSlot, defineArea, on } from '../area.ts';
import type { WorldApi } from '../world-api.ts';

export const ChatRequest = z.object({ message: z.string().max(4 * MAX_CHAT_LENGTH) }).strict();

/** Each player's chat rate limit (public chat and private messages share it). */
export const chatLimits = new PlayerSlot('chat limit', () => new ChatLimiter());

export interface ChatMessage {
  fromId: string;
  fromName: string;
  message: string;
  channel: 'public' | 'system';
  timestamp: string;
}

function sayPublicly(world: WorldApi, speaker: OnlinePlayer, raw: string): void {
  // The same clean-up as private messages (src/game/social.ts).
  const cleaned = sanitizeChat(raw);
  if (!cleaned.ok) throw new GameError(cleaned.code, cleaned.message);
  const message = cleaned.value;
  chatLimits.of(speaker).admit(Date.now());
  const chat: ChatMessage = {
    fromId: speaker.id, fromName: speaker.name, message, channel: 'public', timestamp: new Date().toISOString(),
  };
  world.sendNear(speaker.x, speaker.z, world.interestRadius, 'chat:message', chat, (listener) => !listener.ignores.has(speaker.id), { withTick: true });
}

/**
 * `/admin <code>` elevates this session when the code is right; every try counts as an authentication attempt.
 * Agents (their tokens, or messages they send through REST) may not elevate: refused before any code is compared.
 */
async function elevate(world: WorldApi, player: OnlinePlayer, args: string[]): Promise<void> {
  const refusal = elevationRefusal(player);
  if (refusal) throw new GameError('ADMIN_NOT_ALLOWED', refusal);
  const result = await world.context().auth.adminGate.check(args.join(' '), { accountId: player.accountId, address: player.address });
  if (!result.granted) {
    throw new GameError(result.code, result.code === 'ADMIN_DISABLED' ? 'Admin commands are disabled' : 'Admin access refused');
  }
  recordElevation(player);
  player.client.send('admin:granted', { characterId: player.id });
}

export const chat = defineArea({
  name: 'chat',
  messages: {
    'player:chat': on(ChatRequest, ({ world, player }, { message }) => {
      if (message.trimStart().startsWith('/')) return world.runCommand(player, message.trim());
      sayPublicly(world, player, message);
    }),
  },
  sends: ['chat:message', 'admin:granted'],
  playerState: [chatLimits],
  commands: {
    admin: (world, player, args) => elevate(world, player, args),
  },
});
