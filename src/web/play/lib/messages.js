// Readable text for what the server says in codes: refusals (`error`, `tradeError`) carry a readable `message`
// of their own, which wins; reasons and codes that come without one (`action:stopped`, `tradeCancelled`,
// `homeTeleport:interrupted`, `dialogue:closed`) are worded here. No DOM.

const REASONS = {
  DONE: 'Done.',
  STOPPED: 'You stop.',
  MOVED: 'You stop to walk away.',
  NODE_DEPLETED: 'There is nothing left to gather there for now.',
  TARGET_DIED: 'Your target died.',
  TARGET_GONE: 'Your target is gone.',
  DIED: 'You died.',
  INVENTORY_FULL: 'Your inventory is full.',
  NO_TOOL: 'You need a tool for that.',
  LEVEL_TOO_LOW: 'Your level is too low for that.',
  NOT_PVP_AREA: 'You can only fight players in a PvP area.',
  NO_AMMO: 'You have no ammunition.',
  moved: 'moving',
  combat: 'combat',
  trade: 'a trade',
  death: 'death',
};

/** "NOT_NEAR_BANK" → "Not near bank". */
export function humanize(code) {
  const text = String(code ?? '').toLowerCase().replace(/_/g, ' ').trim();
  return text ? text[0].toUpperCase() + text.slice(1) : '';
}

/** A refusal as one short line: the server's message, or the code made readable. */
export function refusalText(data) {
  const message = typeof data?.message === 'string' && data.message.trim() ? data.message.trim() : humanize(data?.code);
  return message.endsWith('.') || message.endsWith('!') || message.endsWith('?') ? message : `${message}.`;
}

/** Why an activity stopped (`action:stopped {reason, message?}`). */
export function stopText(data) {
  if (typeof data?.message === 'string' && data.message) return refusalText(data);
  return REASONS[data?.reason] ?? refusalText({ code: data?.reason });
}

const TRADE_CANCEL = {
  cancelled: 'The trade was cancelled.',
  declined: 'The trade request was declined.',
  request_expired: 'The trade request expired.',
  disconnected: 'The other player disconnected.',
  player_died: 'A player died: the trade is off.',
  server_shutdown: 'The server is shutting down: the trade is off.',
  idle_timeout: 'The trade timed out.',
  error: 'The trade ended on an error.',
};

export function tradeCancelText(data) {
  return TRADE_CANCEL[data?.reason] ?? (data?.message ? refusalText(data) : 'The trade was cancelled.');
}

const DIALOGUE_CLOSED = {
  WALKED_AWAY: 'You walked away from the conversation.',
  REPLACED: undefined,
  INTERFACE_BLOCKED: 'The conversation ends: you are trading.',
  NPC_GONE: 'They are gone.',
  DIED: undefined,
};

export function dialogueClosedText(data) {
  return DIALOGUE_CLOSED[data?.reason];
}

export function interruptText(data) {
  return `Your teleport was interrupted by ${REASONS[data?.reason] ?? 'something'}.`;
}

/** "3 × Logs", "Logs". */
export function stackText(stack, itemName) {
  const name = itemName(stack.itemId);
  return stack.quantity > 1 ? `${stack.quantity.toLocaleString('en')} × ${name}` : name;
}
