/**
 * Trading, the world side: `tradeRequest` and `tradeRequestRespond`, the trade actions of players not (yet)
 * connected to their TradeRoom, and the hooks that cancel a trade when a player leaves, dies or the server
 * stops. The trade itself runs in rooms/trade (TradeSession, TradeRoom). Refusals answer `tradeError`.
 */
import { z } from 'zod';
import { GameError } from '../../../src/game/refusal.ts';
import { TRADE_ACTIONS, TradeRequest, TradeRequestRespond, toAction, type TradeActionEvent } from '../../trade/protocol.ts';
import { TradeService } from '../../trade/trade-service.ts';
import type { OnlinePlayer } from '../online-player.ts';
import type { WorldFeature } from '../world-api.ts';

/** Tiles (Chebyshev) between two players for a trade request, its acceptance and each accept. */
export const TRADE_DISTANCE = 2;

/** Parses a payload, turning a failure into INVALID_PAYLOAD (answered as tradeError, never `error`). */
export function parseTradePayload<S extends z.ZodType>(schema: S, type: string, data: unknown): z.infer<S> {
  const parsed = schema.safeParse(data ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  const tradeId = typeof (data as { tradeId?: unknown } | null)?.tradeId === 'string' ? (data as { tradeId: string }).tradeId.slice(0, 64) : undefined;
  throw new GameError('INVALID_PAYLOAD', `Invalid ${type} payload${where}: ${issue?.message ?? 'invalid'}`, tradeId ? { tradeId } : undefined);
}

export const tradeRequests: WorldFeature = {
  name: 'trade',
  install(world) {
    const config = world.context().config;
    const service = new TradeService(world, {
      maxDistance: TRADE_DISTANCE,
      requestTimeoutMs: config.tradeRequestTimeoutMs,
      requestCooldownMs: config.tradeRequestCooldownMs,
      idleTimeoutMs: config.tradeIdleTimeoutMs,
    }, world.context().logger.child({ component: 'trade' }));

    const on = <S extends z.ZodType>(type: string, schema: S, handler: (player: OnlinePlayer, data: z.infer<S>) => void | Promise<void>) => {
      world.handle(type, z.unknown(), async (player, raw, client) => {
        try {
          await handler(player, parseTradePayload(schema, type, raw));
        } catch (error) {
          if (!(error instanceof GameError)) throw error;
          client.send('tradeError', { code: error.code, message: error.message, event: type, ...error.details });
        }
      });
    };

    on('tradeRequest', TradeRequest, (player, data) => service.request(player, data.targetPlayerId));
    on('tradeRequestRespond', TradeRequestRespond, (player, data) => service.respond(player, data.tradeId, data.accept));
    for (const type of Object.keys(TRADE_ACTIONS) as TradeActionEvent[]) {
      on(type, TRADE_ACTIONS[type], (player, data) => service.act(player, data.tradeId, toAction(type, data)));
    }
    world.onPlayerDropped((player) => service.playerDropped(player));
    world.onPlayerLeave((player, reason) => service.playerLeft(player, reason));
    world.onPlayerDied((player) => service.playerDied(player));
  },
};
