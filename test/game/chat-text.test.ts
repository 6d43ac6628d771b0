/** Invisible chat (issue #17 item 11): the pure text rule and its use by sanitizeChat (public and private chat). */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hasVisibleContent, MAX_MARKS_PER_BASE, stripInvisible } from '../../src/game/chat-text.ts';
import { sanitizeChat } from '../../src/game/social.ts';
import { expectCode, expectOk } from './support/results.ts';

const ACUTE = '\u0301';

describe('chat text: what can be seen', () => {
  describe('messages with nothing visible are refused (EMPTY_MESSAGE)', () => {
    const cases: Array<[string, string]> = [
      ['200 Hangul fillers', '\u3164'.repeat(200)],
      ['the other Hangul fillers', '\u115f\u1160\uffa0'.repeat(50)],
      ['100 tag characters', String.fromCodePoint(...Array.from({ length: 100 }, (_, i) => 0xe0020 + (i % 95)))],
      ['200 soft hyphens', '\u00ad'.repeat(200)],
      ['a 150-mark combining stack with no base', ACUTE.repeat(150)],
      ['combining grapheme joiners and variation selectors', '\u034f\ufe0f\u200d\u200c'.repeat(30)],
      ['Braille blanks between spaces', ' \u2800 \u2800 '],
      ['a mix of all of them', '\u3164\u00ad \u{e0041}\u0301\u180e\u2064'],
    ];
    for (const [what, text] of cases) {
      it(what, () => {
        expectCode(sanitizeChat(text), 'EMPTY_MESSAGE');
        assert.equal(hasVisibleContent(stripInvisible(text).trim()), false);
      });
    }
  });

  it('padding around visible text goes, the text stays', () => {
    assert.equal(expectOk(sanitizeChat(`hi${'\u3164'.repeat(150)} there${'\u00ad'.repeat(50)}`)), 'hi there');
    assert.equal(expectOk(sanitizeChat(`a\u{e0041}\u{e0042}b`)), 'ab', 'stray tag characters go');
  });

  it(`caps combining marks at ${MAX_MARKS_PER_BASE} per base character`, () => {
    const capped = expectOk(sanitizeChat(`q${ACUTE.repeat(150)}ok`)); // q has no precomposed accented form
    assert.equal(capped, `q${ACUTE.repeat(MAX_MARKS_PER_BASE)}ok`);
    const twoBases = expectOk(sanitizeChat(`q${'\u0300'.repeat(9)}x${'\u0306'.repeat(9)}`));
    assert.equal(twoBases, `q${'\u0300'.repeat(MAX_MARKS_PER_BASE)}x${'\u0306'.repeat(MAX_MARKS_PER_BASE)}`);
  });

  it('keeps what real text needs: accents, Indic clusters, Persian non-joiners, emoji sequences, flags', () => {
    for (const text of [
      'café',
      'Việt Nam',
      'स्त्री क्षत्रिय', // Devanagari: viramas and vowel signs
      'می‌خواهم', // Persian: a zero-width non-joiner inside the word
      '👨‍👩‍👧 family',
      '❤️ love',
      '1️⃣ first',
      '👍🏽',
      '🏴󠁧󠁢󠁥󠁮󠁧󠁿 England', // black flag + tag letters + cancel tag
      '한국어',
    ]) {
      assert.equal(expectOk(sanitizeChat(text)), text.normalize('NFC'), text);
    }
  });

  it('squeezes joiner runs and selector runs to one, and drops joiners with nothing on a side', () => {
    assert.equal(stripInvisible('a\u200d\u200d\u200d\u200db'), 'a\u200db');
    assert.equal(stripInvisible('\u2764\ufe0f\ufe0f\ufe0f'), '\u2764\ufe0f');
    assert.equal(stripInvisible('\u200da\u200d'), 'a');
  });

  it('counts selectors toward the cap of marks: selectors between marks cannot stretch a stack (seed -252880169)', () => {
    const text = `a\ufe0f${ACUTE}\ufe0f${ACUTE}${ACUTE}${ACUTE}${ACUTE}`;
    assert.doesNotMatch(stripInvisible(text), new RegExp(`\\p{M}{${MAX_MARKS_PER_BASE + 1}}`, 'u'));
  });

  it('never leaves more than the cap of marks in a row, nor a text with nothing to see (property)', () => {
    const pieces = fc.constantFrom('a', 'é', ' ', ACUTE, '\u0300', '\u3164', '\u00ad', '\u{e0041}', '\u200d', '\ufe0f', '\u2800', '😀', '\u0915\u094d');
    fc.assert(fc.property(fc.array(pieces, { maxLength: 80 }), (parts) => {
      const result = sanitizeChat(parts.join(''));
      if (!result.ok) return result.code === 'EMPTY_MESSAGE' || result.code === 'MESSAGE_TOO_LONG';
      const text = result.value;
      assert.ok(hasVisibleContent(text));
      assert.doesNotMatch(text, new RegExp(`\\p{M}{${MAX_MARKS_PER_BASE + 1}}`, 'u'));
      assert.doesNotMatch(text, /[\u3164\u00ad\u2800\u{e0000}-\u{e007f}]/u);
      assert.equal(sanitizeChat(text).ok && (sanitizeChat(text) as { value: string }).value, text, 'cleaning twice changes nothing');
      return true;
    }));
  });
});
