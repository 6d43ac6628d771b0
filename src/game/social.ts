/**
 * Friends, ignore lists, private messages and chat text. Friendship is mutual: it exists in both players' lists
 * or in neither. A request waits in the sender's `outgoing` and the recipient's `incoming` until accepted or
 * declined; two players asking each other become friends at once. Ignoring someone ends any friendship and
 * pending request between the two.
 */
import { ok, refuse, type Result } from './result.ts';
import { hasVisibleContent, stripInvisible } from './chat-text.ts';

export const MAX_FRIENDS = 99;
export const MAX_IGNORES = 99;
export const MAX_CHAT_LENGTH = 200;

export interface SocialLists {
  readonly playerId: string;
  readonly friends: readonly string[];
  readonly ignores: readonly string[];
  /** Players who asked this player to be friends. */
  readonly incoming: readonly string[];
  /** Players this player asked. */
  readonly outgoing: readonly string[];
}

export type SocialCode =
  | 'SELF'
  | 'ALREADY_FRIENDS'
  | 'ALREADY_REQUESTED'
  | 'IGNORED'
  | 'YOU_IGNORE_THEM'
  | 'FRIEND_LIMIT'
  | 'THEIR_FRIEND_LIMIT'
  | 'NO_REQUEST'
  | 'NOT_FRIENDS'
  | 'ALREADY_IGNORED'
  | 'IGNORE_LIMIT'
  | 'NOT_IGNORED'
  | 'INVALID_MESSAGE'
  | 'EMPTY_MESSAGE'
  | 'MESSAGE_TOO_LONG';

type Pair = { sender: SocialLists; recipient: SocialLists };

export function emptySocialLists(playerId: string): SocialLists {
  return { playerId, friends: [], ignores: [], incoming: [], outgoing: [] };
}

export function areFriends(a: SocialLists, b: SocialLists): boolean {
  return a.friends.includes(b.playerId) && b.friends.includes(a.playerId);
}

/** Sends a friend request (or completes a mutual one). Friends plus pending requests count toward the limit. */
export function requestFriend(sender: SocialLists, recipient: SocialLists): Result<Pair & { becameFriends: boolean }, SocialCode> {
  const { playerId: from } = sender;
  const { playerId: to } = recipient;
  if (from === to) return refuse('SELF', 'you cannot befriend yourself');
  if (sender.friends.includes(to)) return refuse('ALREADY_FRIENDS', 'you are already friends');
  if (sender.ignores.includes(to)) return refuse('YOU_IGNORE_THEM', 'remove them from your ignore list first');
  if (recipient.ignores.includes(from)) return refuse('IGNORED', 'they are not accepting requests from you');
  if (sender.outgoing.includes(to)) return refuse('ALREADY_REQUESTED', 'you already asked them');
  if (recipient.outgoing.includes(from)) {
    const accepted = acceptFriend(sender, recipient);
    if (!accepted.ok) return accepted;
    return ok({ sender: accepted.value.recipient, recipient: accepted.value.sender, becameFriends: true });
  }
  if (sender.friends.length + sender.outgoing.length >= MAX_FRIENDS) return refuse('FRIEND_LIMIT', `you can have at most ${MAX_FRIENDS} friends`);
  if (recipient.friends.length >= MAX_FRIENDS) return refuse('THEIR_FRIEND_LIMIT', 'their friends list is full');
  return ok({
    sender: { ...sender, outgoing: [...sender.outgoing, to] },
    recipient: { ...recipient, incoming: [...recipient.incoming, from] },
    becameFriends: false,
  });
}

/** The recipient accepts the sender's request; both become friends. */
export function acceptFriend(recipient: SocialLists, sender: SocialLists): Result<Pair, SocialCode> {
  if (!recipient.incoming.includes(sender.playerId) || !sender.outgoing.includes(recipient.playerId)) {
    return refuse('NO_REQUEST', 'there is no such friend request');
  }
  if (recipient.friends.length >= MAX_FRIENDS) return refuse('FRIEND_LIMIT', `you can have at most ${MAX_FRIENDS} friends`);
  if (sender.friends.length >= MAX_FRIENDS) return refuse('THEIR_FRIEND_LIMIT', 'their friends list is full');
  return ok({
    recipient: clearRequests({ ...recipient, friends: [...recipient.friends, sender.playerId] }, sender.playerId),
    sender: clearRequests({ ...sender, friends: [...sender.friends, recipient.playerId] }, recipient.playerId),
  });
}

export function declineFriend(recipient: SocialLists, sender: SocialLists): Result<Pair, SocialCode> {
  if (!recipient.incoming.includes(sender.playerId)) return refuse('NO_REQUEST', 'there is no such friend request');
  return ok({ recipient: clearRequests(recipient, sender.playerId), sender: clearRequests(sender, recipient.playerId) });
}

/** Ends a friendship on both sides. */
export function removeFriend(self: SocialLists, other: SocialLists): Result<{ self: SocialLists; other: SocialLists }, SocialCode> {
  if (!self.friends.includes(other.playerId)) return refuse('NOT_FRIENDS', 'you are not friends');
  return ok({ self: unfriend(self, other.playerId), other: unfriend(other, self.playerId) });
}

/** Ignores a player; any friendship or pending request between the two ends. */
export function ignorePlayer(self: SocialLists, other: SocialLists): Result<{ self: SocialLists; other: SocialLists }, SocialCode> {
  if (self.playerId === other.playerId) return refuse('SELF', 'you cannot ignore yourself');
  if (self.ignores.includes(other.playerId)) return refuse('ALREADY_IGNORED', 'you already ignore them');
  if (self.ignores.length >= MAX_IGNORES) return refuse('IGNORE_LIMIT', `you can ignore at most ${MAX_IGNORES} players`);
  return ok({
    self: { ...clearRequests(unfriend(self, other.playerId), other.playerId), ignores: [...self.ignores, other.playerId] },
    other: clearRequests(unfriend(other, self.playerId), self.playerId),
  });
}

export function unignorePlayer(self: SocialLists, otherId: string): Result<SocialLists, SocialCode> {
  if (!self.ignores.includes(otherId)) return refuse('NOT_IGNORED', 'you do not ignore them');
  return ok({ ...self, ignores: self.ignores.filter((id) => id !== otherId) });
}

/** A private message is allowed only between friends, and never to someone who ignores the sender. */
export function canPrivateMessage(sender: SocialLists, recipient: SocialLists): Result<true, SocialCode> {
  if (sender.playerId === recipient.playerId) return refuse('SELF', 'you cannot message yourself');
  if (recipient.ignores.includes(sender.playerId)) return refuse('IGNORED', 'they are not receiving your messages');
  if (!areFriends(sender, recipient)) return refuse('NOT_FRIENDS', 'you can only message friends');
  return ok(true);
}

/** Checks a private message and returns its sanitized text. */
export function privateMessage(sender: SocialLists, recipient: SocialLists, text: unknown): Result<string, SocialCode> {
  const allowed = canPrivateMessage(sender, recipient);
  if (!allowed.ok) return allowed;
  return sanitizeChat(text);
}

// Bidirectional-text controls, invisible marks and private-use glyphs that can disguise a message; zero-width
// joiners (emoji sequences) and non-joiners (scripts that need them) stay.
const DISGUISE = /[\u200b\u200e\u200f\u2060\u061c\u202a-\u202e\u2066-\u2069\ufeff\p{Co}]/gu;
const CONTROL = /\p{Cc}/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Chat text as it may be shown: line breaks and tabs become spaces, other control characters, direction
 * overrides and broken surrogates are removed, invisible padding goes and combining marks are capped per base
 * (chat-text.ts), runs of spaces collapse, ends are trimmed. Refused when nothing visible is left or when longer
 * than `maxLength` characters (code points).
 */
export function sanitizeChat(text: unknown, maxLength: number = MAX_CHAT_LENGTH): Result<string, SocialCode> {
  if (typeof text !== 'string') return refuse('INVALID_MESSAGE', 'a message is text');
  const cleaned = text
    .replace(LONE_SURROGATE, '')
    .normalize('NFC')
    .replace(/[\t\n\v\f\r\u0085\u2028\u2029]/g, ' ')
    .replace(CONTROL, '')
    .replace(DISGUISE, '');
  const clean = stripInvisible(cleaned).replace(/\s+/g, ' ').trim();
  if (clean.length === 0) return refuse('EMPTY_MESSAGE', 'the message is empty');
  if (!hasVisibleContent(clean)) return refuse('EMPTY_MESSAGE', 'the message has nothing visible in it');
  const length = [...clean].length;
  if (length > maxLength) return refuse('MESSAGE_TOO_LONG', `a message has at most ${maxLength} characters (this one has ${length})`);
  return ok(clean);
}

function clearRequests(lists: SocialLists, otherId: string): SocialLists {
  return { ...lists, incoming: lists.incoming.filter((id) => id !== otherId), outgoing: lists.outgoing.filter((id) => id !== otherId) };
}

function unfriend(lists: SocialLists, otherId: string): SocialLists {
  return { ...lists, friends: lists.friends.filter((id) => id !== otherId) };
}
