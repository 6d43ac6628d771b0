import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FLOOD_CLOSE_CODE, MessageRateLimiter, type MessageVerdict } from '../../src/limits/message-limiter.ts';

function run(limiter: MessageRateLimiter, times: number[]): MessageVerdict[] {
  return times.map((t) => limiter.hit(t));
}

describe('WebSocket message limiter (60 messages per second per connection)', () => {
  it('200 messages within one second: at most 60 allowed, and the flooder is told to close', () => {
    const limiter = new MessageRateLimiter({ perSecond: 60 });
    const verdicts = run(limiter, Array.from({ length: 200 }, (_, i) => 1000 + i * 4.9));
    assert.deepEqual(verdicts.slice(0, 60), Array(60).fill('allow'));
    assert.equal(verdicts.filter((v) => v === 'allow').length, 60);
    assert.ok(verdicts.includes('close'));
    assert.equal(verdicts.at(-1), 'close', 'once closed, stays closed');
    assert.equal(FLOOD_CLOSE_CODE, 1008);
  });

  it('a client just under the limit is never refused, for minutes', () => {
    const limiter = new MessageRateLimiter({ perSecond: 60 });
    const verdicts = run(limiter, Array.from({ length: 60 * 180 }, (_, i) => i * 17));
    assert.ok(verdicts.every((v) => v === 'allow'));
  });

  it('a short burst over the limit is rejected, not closed, and the connection recovers', () => {
    const limiter = new MessageRateLimiter({ perSecond: 60 });
    const burst = run(limiter, Array.from({ length: 70 }, (_, i) => i));
    assert.equal(burst.filter((v) => v === 'allow').length, 60);
    assert.equal(burst.filter((v) => v === 'reject').length, 10);
    assert.equal(limiter.hit(1100), 'allow');
  });

  it('a client persistently over the limit is closed after the sustained period', () => {
    const limiter = new MessageRateLimiter({ perSecond: 60, sustainedMs: 5000 });
    const verdicts = run(limiter, Array.from({ length: 70 * 10 }, (_, i) => i * (1000 / 70)));
    const closedAt = verdicts.indexOf('close');
    assert.ok(closedAt > 70 * 5 && closedAt < 70 * 7, `closed at message ${closedAt}`);
  });

  it('disabled (DISABLE_RATE_LIMIT) allows everything', () => {
    const limiter = new MessageRateLimiter({ perSecond: 60, enabled: false });
    assert.ok(run(limiter, Array.from({ length: 500 }, () => 0)).every((v) => v === 'allow'));
  });

  it('property: never more than perSecond allowed in any one-second span', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 20 }),
      fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 400 }),
      (perSecond, gaps) => {
        const limiter = new MessageRateLimiter({ perSecond, burstRejects: Infinity, sustainedMs: Infinity });
        let t = 0;
        const allowed: number[] = [];
        for (const gap of gaps) {
          t += gap;
          if (limiter.hit(t) === 'allow') allowed.push(t);
        }
        for (let i = perSecond; i < allowed.length; i++) {
          if (allowed[i] - allowed[i - perSecond] < 1000) return false;
        }
        return true;
      },
    ));
  });
});
