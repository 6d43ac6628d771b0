/**
 * Trading, the world side: `tradeRequest`, `tradeRequestRespond` and the trade actions of players not (yet)
 * connected to their TradeRoom (one entry per event, shared with the TradeRoom: rooms/trade/messages.ts), and the
 * hooks that cancel a trade when a player's connection drops, it leaves or dies. The trade itself runs in
 * rooms/trade (TradeService, TradeSession, TradeRoom). Refusals answer `tradeError`.
 */
import { TRADE_MESSAGES } from '../../trade/messages.ts';
import { tradeServices } from '../../trade/trade-service.ts';
import { defineArea } from '../area.ts';

export const trade = defineArea({
  name: 'trade',
  messages: TRADE_MESSAGES,
  sends: ['tradeIncoming', 'tradeStarted', 'tradeUpdated', 'tradeConfirmScreen', 'tradeCompleted', 'tradeCancelled', 'tradeError', 'player:sync'],
  install(world) {
    const service = tradeServices.of(world);
    world.onPlayerDropped((player) => service.playerDropped(player));
    world.onPlayerLeave((player, reason) => service.playerLeft(player, reason));
    world.onPlayerDied((player) => service.playerDied(player));
  },
});
