/** The world-hop rule (src/game/world-hop.ts): the combat wait is 17 ticks (10.2 s), in the rule, its message and the docs. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { hopRefusal, type HopSituation } from '../../src/game/world-hop.ts';

const calm: HopSituation = { from: 1, to: 2, trading: false, inDialogue: false, lastCombatTick: -Infinity, tick: 1000 };

describe('world hop: the combat wait', () => {
  it('refuses a hop up to 17 ticks after the last hit, saying 10.2 s, and allows it from the 17th tick on', () => {
    const refused = hopRefusal({ ...calm, lastCombatTick: 1000 - 16 });
    assert.equal(refused?.code, 'HOP_IN_COMBAT');
    assert.match(refused!.message, /\b10\.2 s\b/, 'the message states the rule as it is applied: 17 ticks of 600 ms');
    assert.match(refused!.message, /\b17 ticks\b/);
    assert.deepEqual(refused!.details, { retryAfterSeconds: 1 });
    assert.equal(hopRefusal({ ...calm, lastCombatTick: 1000 })?.details?.retryAfterSeconds, 11, '10.2 s left, rounded up');
    assert.equal(hopRefusal({ ...calm, lastCombatTick: 1000 - 17 }), undefined);
  });

  it('every doc that names HOP_IN_COMBAT states the same wait: 10.2 s', () => {
    const docs = ['docs/protocol.md', 'docs/worlds.md', 'docs/errors.md'];
    for (const file of docs) {
      const text = fs.readFileSync(file, 'utf8');
      // The sentence or table row around each mention.
      for (const match of text.matchAll(/HOP_IN_COMBAT[^|]*?(?:\.\s|\|$|$)/gm)) {
        const around = text.slice(Math.max(0, match.index - 200), match.index + match[0].length + 200);
        assert.doesNotMatch(around, /\b10 s\b/, `${file}: "${match[0].trim()}" says 10 s`);
        assert.match(around, /10\.2 s/, `${file}: "${match[0].trim()}" does not say 10.2 s`);
      }
    }
  });
});
