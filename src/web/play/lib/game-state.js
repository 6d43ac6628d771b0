// The player's own state, kept from the server's events (docs/protocol.md, economy.md, skills.md, quests.md,
// trading.md): everything the page's panels show. `applyEvent` takes one event and says which parts changed, so
// the page redraws only those. No DOM; entities around the player live in EntityStore.

import { dialogueClosedText, interruptText, refusalText, stackText, stopText, tradeCancelText } from './messages.js';

const LOG_LIMIT = 200;
const EFFECT_MS = 1600;
const BUBBLE_MS = 4000;

export function createGameState() {
  return {
    /** `player:sync`: position, health, inventory (28 slots, null when empty), equipment, bonuses, world. */
    self: null,
    /** `world:joined`: roomId, world, sessionId, reconnectionToken. */
    world: null,
    skills: [],
    combatLevel: undefined,
    quests: { questPoints: 0, quests: [] },
    prayer: { points: 0, maxPoints: 0, active: [] },
    social: { friends: [], incoming: [], outgoing: [], ignores: [] },
    /** `bank:state` while the bank is open. */
    bank: null,
    /** `shop:state` while a shop is open. */
    shop: null,
    /** The open trade: both offers, the screen, and what the partner took back (the anti-scam warning). */
    trade: null,
    /** `tradeIncoming` requests not answered yet. */
    tradeRequests: [],
    /** `dialogue:open` / `dialogue:node` while talking to an NPC. */
    dialogue: null,
    /** `action:started` until `action:stopped`. */
    activity: null,
    /** `homeTeleport:started` until it completes or is interrupted. */
    teleport: null,
    /** The chat box: public and private lines, game messages, refusals. */
    log: [],
    /** Short-lived pictures on the map: hit splats, XP drops, chat above heads. */
    hits: [],
    xpDrops: [],
    bubbles: new Map(),
    /** The last `player:died`. */
    death: null,
    admin: false,
  };
}

function logLine(state, channel, text, now, extra = {}) {
  state.log.push({ channel, text, at: now, ...extra });
  if (state.log.length > LOG_LIMIT) state.log.splice(0, state.log.length - LOG_LIMIT);
}

function tradeSide(offer) {
  return { items: offer?.items ?? [], accepted: Boolean(offer?.accepted), value: offer?.value ?? 0 };
}

function setSkill(state, skill, fields) {
  const entry = state.skills.find((s) => s.skill === skill);
  if (entry) Object.assign(entry, fields);
  else state.skills.push({ skill, ...fields });
}

/** Forgets effects older than their time on screen (call once per frame or so). */
export function expireEffects(state, now) {
  if (state.hits.length && now - state.hits[0].at > EFFECT_MS) state.hits = state.hits.filter((h) => now - h.at <= EFFECT_MS);
  if (state.xpDrops.length && now - state.xpDrops[0].at > EFFECT_MS) state.xpDrops = state.xpDrops.filter((d) => now - d.at <= EFFECT_MS);
  for (const [id, bubble] of state.bubbles) if (now - bubble.at > BUBBLE_MS) state.bubbles.delete(id);
}

/**
 * Applies one server event.
 * @param {ReturnType<typeof createGameState>} state
 * @param {string} type
 * @param {any} data
 * @param {{ now: number, itemName: (id: string) => string }} context
 * @returns {string[]} the parts that changed: self, world, skills, quests, prayer, social, bank, shop, trade, dialogue, activity, log
 */
export function applyEvent(state, type, data, context) {
  const { now, itemName } = context;
  const stacks = (list) => (list ?? []).map((s) => stackText(s, itemName)).join(', ');
  switch (type) {
    case 'player:sync':
      state.self = { ...state.self, ...data };
      return ['self'];
    case 'world:joined':
      state.world = data;
      return ['world'];
    case 'world:hopped':
      logLine(state, 'game', `You hop from world ${data.from} to world ${data.to}.`, now);
      return ['world', 'log'];
    case 'world:left':
      state.world = null;
      state.bank = state.shop = state.trade = state.dialogue = state.activity = state.teleport = null;
      return ['world', 'bank', 'shop', 'trade', 'dialogue', 'activity'];

    case 'error':
    case 'tradeError':
      logLine(state, 'error', refusalText(data), now, { code: data.code, event: data.event });
      return ['log'];
    case 'chat:message':
      logLine(state, data.channel === 'system' ? 'system' : 'public', data.message, now, { from: data.fromName, fromId: data.fromId });
      if (data.channel !== 'system') state.bubbles.set(data.fromId, { text: data.message, at: now });
      return ['log'];
    case 'chat:privateMessage':
      logLine(state, 'private', data.message, now, { from: data.fromName, fromId: data.fromId });
      return ['log'];
    case 'chat:privateMessageSent':
      logLine(state, 'private', data.message, now, { to: data.toName, toId: data.toId });
      return ['log'];
    case 'admin:granted':
      state.admin = true;
      logLine(state, 'game', 'Admin commands enabled for this session.', now);
      return ['log'];
    case 'admin:done':
      logLine(state, 'game', `Done: ${data.command}.`, now);
      return ['log'];
    case 'player:kicked':
      logLine(state, 'error', `You were removed from the world (${data.reason ?? 'kicked'}).`, now);
      return ['log'];

    case 'skills:state':
      state.skills = data.skills.map((s) => ({ ...s }));
      state.combatLevel = data.combatLevel;
      return ['skills'];
    case 'skill:xp':
      setSkill(state, data.skill, { xp: data.xp, level: data.level });
      if (data.amount > 0) state.xpDrops.push({ skill: data.skill, amount: data.amount, at: now });
      return ['skills'];
    case 'skill:levelUp':
      setSkill(state, data.skill, { level: data.level });
      logLine(state, 'game', `Congratulations: your ${data.skill} level is now ${data.level}.`, now);
      return ['skills', 'log'];
    case 'gather:success':
      logLine(state, 'game', `You get ${stacks(data.items)}.`, now);
      return ['log'];
    case 'process:made':
      logLine(state, 'game', data.result === 'failure' ? `You fail: ${stacks(data.items) || 'nothing made'}.` : `You make ${stacks(data.items)}.`, now);
      return ['log'];
    case 'fire:lit':
      logLine(state, 'game', 'The fire catches.', now);
      return ['log'];
    case 'action:started':
      state.activity = data;
      return ['activity'];
    case 'action:stopped': {
      state.activity = null;
      // Finishing, stopping and walking off are not news; dying is told by player:died.
      const quiet = ['DONE', 'STOPPED', 'MOVED', 'DIED'].includes(data.reason);
      if (!quiet) logLine(state, 'game', stopText(data), now);
      return quiet ? ['activity'] : ['activity', 'log'];
    }
    case 'combat:hit':
      state.hits.push({ targetId: data.targetId, attackerId: data.attackerId, damage: data.damage, at: now });
      return [];
    case 'npc:died':
      if (data.killerId === state.self?.id) logLine(state, 'game', `You defeated the ${data.npcId.replace(/_/g, ' ')}.`, now);
      return ['log'];

    case 'prayer:state':
      state.prayer = { points: data.points, maxPoints: data.maxPoints, active: [...data.active] };
      return ['prayer'];
    case 'prayer:deactivated':
      if (data.reason === 'NO_PRAYER_POINTS') logLine(state, 'game', 'You have run out of prayer points.', now);
      return ['log'];
    case 'prayer:recharged':
      logLine(state, 'game', 'You recharge your prayer points.', now);
      return ['log'];

    case 'quest:state':
      state.quests = { questPoints: data.questPoints, quests: data.quests.map((q) => ({ ...q })) };
      return ['quests'];
    case 'quest:update': {
      const quest = state.quests.quests.find((q) => q.questId === data.questId);
      if (quest) Object.assign(quest, { stage: data.stage, status: data.status, description: data.description });
      logLine(state, 'game', `${data.name}: ${data.description}`, now);
      return ['quests', 'log'];
    }
    case 'quest:completed':
      state.quests.questPoints = data.questPoints;
      logLine(state, 'game', `Quest complete: ${data.name}!`, now);
      return ['quests', 'log'];
    case 'dialogue:open':
    case 'dialogue:node':
      state.dialogue = data;
      return ['dialogue'];
    case 'dialogue:closed': {
      state.dialogue = null;
      const text = dialogueClosedText(data);
      if (text) logLine(state, 'game', text, now);
      return ['dialogue', 'log'];
    }

    case 'social:state':
      state.social = { friends: data.friends, incoming: data.incoming, outgoing: data.outgoing, ignores: data.ignores };
      return ['social'];
    case 'friend:status': {
      const friend = state.social.friends.find((f) => f.characterId === data.characterId);
      if (friend) Object.assign(friend, { online: data.online, world: data.world });
      logLine(state, 'game', data.online ? `${data.name} is online in world ${data.world}.` : `${data.name} went offline.`, now);
      return ['social', 'log'];
    }
    case 'friend:added':
      if (!state.social.friends.some((f) => f.characterId === data.characterId)) state.social.friends.push(data);
      state.social.incoming = state.social.incoming.filter((f) => f.characterId !== data.characterId);
      state.social.outgoing = state.social.outgoing.filter((f) => f.characterId !== data.characterId);
      logLine(state, 'game', `${data.name} is now your friend.`, now);
      return ['social', 'log'];
    case 'friend:requestReceived':
      if (!state.social.incoming.some((f) => f.characterId === data.characterId)) state.social.incoming.push(data);
      logLine(state, 'game', `${data.name} wants to be your friend.`, now);
      return ['social', 'log'];
    case 'friend:requestSent':
      if (!state.social.outgoing.some((f) => f.characterId === data.characterId)) state.social.outgoing.push(data);
      logLine(state, 'game', `Friend request sent to ${data.name}.`, now);
      return ['social', 'log'];
    case 'friend:declined':
    case 'friend:removed':
      for (const list of ['friends', 'incoming', 'outgoing']) state.social[list] = state.social[list].filter((f) => f.characterId !== data.characterId);
      return ['social'];
    case 'ignore:added':
    case 'ignore:removed':
      return ['social'];

    case 'bank:state':
      state.bank = data;
      return ['bank'];
    case 'shop:state':
      state.shop = data;
      if (data.last) logLine(state, 'game', `You ${data.last.action} ${stackText(data.last, itemName)} for ${data.last.coins} coins.`, now);
      return data.last ? ['shop', 'log'] : ['shop'];
    case 'inventory:used':
      if (data.effect === 'eaten') logLine(state, 'game', `You eat the ${itemName(data.itemId)}: +${data.healed} health.`, now);
      if (data.effect === 'buried') logLine(state, 'game', `You bury the ${itemName(data.itemId)}.`, now);
      return ['log'];
    case 'inventory:dropped':
      return [];
    case 'groundItem:pickedUp':
      logLine(state, 'game', `You pick up ${stackText(data, itemName)}.`, now);
      return ['log'];
    case 'player:died':
      state.death = data;
      state.activity = state.teleport = state.dialogue = null;
      logLine(state, 'game', `Oh dear, you are dead. Your gravestone holds ${stacks(data.gravestone?.items) || 'nothing'}; claim it before it crumbles.`, now);
      return ['log', 'activity', 'dialogue'];
    case 'gravestone:claimed':
      logLine(state, 'game', `You take back ${stacks(data.claimed) || 'nothing'}${data.remaining?.length ? ' (some is still there: make room)' : ''}.`, now);
      if (!data.remaining?.length) state.death = null;
      return ['log'];
    case 'homeTeleport:started':
      state.teleport = { ...data, at: now };
      logLine(state, 'game', 'You start casting home teleport…', now);
      return ['activity', 'log'];
    case 'homeTeleport:completed':
      state.teleport = null;
      return ['activity'];
    case 'homeTeleport:interrupted':
      state.teleport = null;
      logLine(state, 'game', interruptText(data), now);
      return ['activity', 'log'];

    case 'tradeIncoming':
      state.tradeRequests = state.tradeRequests.filter((r) => r.tradeId !== data.tradeId).concat([data]);
      logLine(state, 'trade', `${data.fromPlayerName} wishes to trade with you.`, now);
      return ['trade', 'log'];
    case 'tradeStarted':
      state.tradeRequests = state.tradeRequests.filter((r) => r.tradeId !== data.tradeId);
      state.trade = { tradeId: data.tradeId, partnerId: data.partnerId, partnerName: data.partnerName, screen: 'offer', my: tradeSide(), their: tradeSide(), values: null, removed: [] };
      state.bank = state.shop = state.dialogue = null;
      return ['trade', 'bank', 'shop', 'dialogue'];
    case 'tradeUpdated':
      if (!state.trade || state.trade.tradeId !== data.tradeId) return [];
      state.trade.screen = data.screen ?? state.trade.screen;
      state.trade.my = tradeSide(data.myOffer);
      state.trade.their = tradeSide(data.theirOffer);
      if (data.partnerRemoved?.length) state.trade.removed.push(...data.partnerRemoved);
      return ['trade'];
    case 'tradeConfirmScreen':
      if (!state.trade || state.trade.tradeId !== data.tradeId) return [];
      Object.assign(state.trade, { screen: 'confirm', my: tradeSide(data.myOffer), their: tradeSide(data.theirOffer), values: data.values });
      return ['trade'];
    case 'tradeCompleted':
      state.trade = null;
      logLine(state, 'trade', `Trade completed: you received ${stacks(data.receivedItems) || 'nothing'}.`, now);
      return ['trade', 'log'];
    case 'tradeCancelled':
      state.tradeRequests = state.tradeRequests.filter((r) => r.tradeId !== data.tradeId);
      if (state.trade?.tradeId === data.tradeId) state.trade = null;
      logLine(state, 'trade', tradeCancelText(data), now);
      return ['trade', 'log'];
    default:
      return [];
  }
}
