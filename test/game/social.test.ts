import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  MAX_CHAT_LENGTH,
  MAX_FRIENDS,
  MAX_IGNORES,
  acceptFriend,
  areFriends,
  canPrivateMessage,
  declineFriend,
  emptySocialLists,
  ignorePlayer,
  privateMessage,
  removeFriend,
  requestFriend,
  sanitizeChat,
  unignorePlayer,
  type SocialLists,
} from '../../src/game/social.ts';
import { frozen } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

const alice = frozen(emptySocialLists('alice'));
const bob = frozen(emptySocialLists('bob'));

function friends(a: SocialLists, b: SocialLists): [SocialLists, SocialLists] {
  const asked = expectOk(requestFriend(a, b));
  const accepted = expectOk(acceptFriend(asked.recipient, asked.sender));
  return [accepted.sender, accepted.recipient];
}

const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('social', () => {
  describe('friends', () => {
    it('request, accept: both lists hold each other; requests are cleared', () => {
      const asked = expectOk(requestFriend(alice, bob));
      assert.deepEqual(asked.sender.outgoing, ['bob']);
      assert.deepEqual(asked.recipient.incoming, ['alice']);
      assert.equal(asked.becameFriends, false);
      const [a, b] = friends(alice, bob);
      assert.ok(areFriends(a, b));
      assert.deepEqual([a.outgoing, b.incoming], [[], []]);
    });

    it('decline clears the request on both sides', () => {
      const asked = expectOk(requestFriend(alice, bob));
      const declined = expectOk(declineFriend(asked.recipient, asked.sender));
      assert.deepEqual([declined.recipient.incoming, declined.sender.outgoing], [[], []]);
      assert.ok(!areFriends(declined.recipient, declined.sender));
      expectCode(declineFriend(bob, alice), 'NO_REQUEST');
      expectCode(acceptFriend(bob, alice), 'NO_REQUEST');
    });

    it('two players asking each other become friends at once', () => {
      const first = expectOk(requestFriend(alice, bob));
      const second = expectOk(requestFriend(first.recipient, first.sender));
      assert.equal(second.becameFriends, true);
      assert.ok(areFriends(second.sender, second.recipient));
    });

    it('refuses self, existing friends, repeated requests and ignores either way', () => {
      expectCode(requestFriend(alice, alice), 'SELF');
      const [a, b] = friends(alice, bob);
      expectCode(requestFriend(a, b), 'ALREADY_FRIENDS');
      const asked = expectOk(requestFriend(alice, bob));
      expectCode(requestFriend(asked.sender, asked.recipient), 'ALREADY_REQUESTED');
      expectCode(requestFriend({ ...alice, ignores: ['bob'] }, bob), 'YOU_IGNORE_THEM');
      expectCode(requestFriend(alice, { ...bob, ignores: ['alice'] }), 'IGNORED');
    });

    it(`holds at most ${MAX_FRIENDS} friends (pending requests count) on either side`, () => {
      expectCode(requestFriend({ ...alice, friends: many('f', MAX_FRIENDS) }, bob), 'FRIEND_LIMIT');
      expectCode(requestFriend({ ...alice, friends: many('f', 90), outgoing: many('o', 9) }, bob), 'FRIEND_LIMIT');
      expectCode(requestFriend(alice, { ...bob, friends: many('f', MAX_FRIENDS) }), 'THEIR_FRIEND_LIMIT');
      const asked = expectOk(requestFriend(alice, bob));
      expectCode(acceptFriend({ ...asked.recipient, friends: many('f', MAX_FRIENDS) }, asked.sender), 'FRIEND_LIMIT');
    });

    it('removing ends the friendship on both sides', () => {
      const [a, b] = friends(alice, bob);
      const removed = expectOk(removeFriend(b, a));
      assert.ok(!areFriends(removed.self, removed.other));
      assert.deepEqual([removed.self.friends, removed.other.friends], [[], []]);
      expectCode(removeFriend(removed.self, removed.other), 'NOT_FRIENDS');
    });
  });

  describe('ignore', () => {
    it('ignoring ends friendship and pending requests; unignore', () => {
      const [a, b] = friends(alice, bob);
      const ignored = expectOk(ignorePlayer(a, b));
      assert.deepEqual(ignored.self.ignores, ['bob']);
      assert.ok(!areFriends(ignored.self, ignored.other));
      const asked = expectOk(requestFriend(alice, bob));
      const after = expectOk(ignorePlayer(asked.recipient, asked.sender));
      assert.deepEqual([after.self.incoming, after.other.outgoing], [[], []]);
      expectCode(ignorePlayer(ignored.self, ignored.other), 'ALREADY_IGNORED');
      expectCode(ignorePlayer(alice, alice), 'SELF');
      expectCode(ignorePlayer({ ...alice, ignores: many('i', MAX_IGNORES) }, bob), 'IGNORE_LIMIT');
      assert.deepEqual(expectOk(unignorePlayer(ignored.self, 'bob')).ignores, []);
      expectCode(unignorePlayer(alice, 'bob'), 'NOT_IGNORED');
    });
  });

  describe('private messages', () => {
    it('only between friends, never to someone ignoring the sender', () => {
      const [a, b] = friends(alice, bob);
      assert.ok(canPrivateMessage(a, b).ok);
      assert.equal(expectOk(privateMessage(a, b, '  hi\tthere ')), 'hi there');
      expectCode(canPrivateMessage(alice, bob), 'NOT_FRIENDS');
      // One-sided data (bob removed alice but alice's list is stale) is not a friendship.
      expectCode(canPrivateMessage(a, { ...b, friends: [] }), 'NOT_FRIENDS');
      expectCode(canPrivateMessage(a, { ...b, ignores: ['alice'] }), 'IGNORED');
      expectCode(canPrivateMessage(a, a), 'SELF');
      expectCode(privateMessage(a, b, '   '), 'EMPTY_MESSAGE');
    });
  });

  describe('chat text', () => {
    it('strips control characters and direction overrides, turns breaks into spaces, trims', () => {
      assert.equal(expectOk(sanitizeChat('  hello\u0000 \u0007world\r\nbye\u202e!  ')), 'hello world bye!');
      assert.equal(expectOk(sanitizeChat('caf\u0065\u0301')), 'café');
      assert.equal(expectOk(sanitizeChat('a\ud800b')), 'ab');
      assert.equal(expectOk(sanitizeChat('👨‍👩‍👧 ok')), '👨‍👩‍👧 ok');
      assert.equal(expectOk(sanitizeChat('a\u200bb\u2060c\ue000d')), 'abcd', 'zero-width spaces, word joiners and private-use glyphs go');
    });

    it('refuses empty, too long and non-text messages', () => {
      expectCode(sanitizeChat(''), 'EMPTY_MESSAGE');
      expectCode(sanitizeChat(' \u0000\n\u202e '), 'EMPTY_MESSAGE');
      assert.equal(expectOk(sanitizeChat('x'.repeat(MAX_CHAT_LENGTH))).length, MAX_CHAT_LENGTH);
      expectCode(sanitizeChat('x'.repeat(MAX_CHAT_LENGTH + 1)), 'MESSAGE_TOO_LONG');
      assert.equal(expectOk(sanitizeChat('😀'.repeat(MAX_CHAT_LENGTH))).length, MAX_CHAT_LENGTH * 2);
      expectCode(sanitizeChat('hello', 4), 'MESSAGE_TOO_LONG');
      for (const bad of [null, undefined, 42, {}, ['hi']]) expectCode(sanitizeChat(bad), 'INVALID_MESSAGE');
    });

    it('never lets a control character through, for any input', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
          const result = sanitizeChat(text);
          if (!result.ok) return;
          assert.ok(!/\p{Cc}/u.test(result.value));
          assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(result.value));
          assert.equal(result.value, result.value.trim());
          assert.ok([...result.value].length <= MAX_CHAT_LENGTH);
        }),
      );
    });
  });
});
