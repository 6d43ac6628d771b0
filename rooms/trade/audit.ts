/**
 * The trade audit's log: one structured log line per step (request, response, add, remove, accept, confirm,
 * complete, cancel). The `trade_audit` rows are written through the store src/db/trade-audit.ts.
 */
import type { Logger } from '../../src/logger.ts';

export type TradeStep =
  | 'request' | 'request_expired' | 'respond' | 'start' | 'add' | 'remove' | 'accept' | 'confirm'
  | 'swap_refused' | 'complete' | 'cancel';

export function logTradeStep(logger: Logger, step: TradeStep, fields: Record<string, unknown>): void {
  logger.info({ trade: { step, ...fields } }, `trade ${step}`);
}
