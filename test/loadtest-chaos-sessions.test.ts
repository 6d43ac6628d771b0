/**
 * The chaos run's "two sessions" check (loadtest/lib/chaos/sessions.ts, docs/chaos.md): an old session that answers
 * a move sent after its character's new session joined, while the new session still answers moves sent after that,
 * is a violation. A reply to a move sent before the join, delivered late (held up in a stalled process that relays
 * the socket), is not; nor is an old session acting once the new one has gone (one world at each instant).
 */
import assert from 'node:assert/strict';
import { MoveLedger, SessionWatch, type ProbedSession } from '../loadtest/lib/chaos/sessions.ts';
import { Violations } from '../loadtest/lib/chaos/violations.ts';

function session(label: string, enteredAt: number): ProbedSession {
  return { label, enteredAt, moves: new MoveLedger(), probe: () => undefined, isOpen: () => true, close: () => undefined };
}

function watchWith(violations: Violations) {
  const stats = { ghosts: 0, ghostAnswers: 0, actedAfterNewerGone: 0, twoAtOnce: 0, closeCodes: {} };
  return { watch: new SessionWatch('C1', violations, stats), stats };
}

/** An old session abandoned at 2 s, a new one joined at 10 s, the old one answering a move it sent at 11 s. */
function ghostActs(violations: Violations) {
  const { watch, stats } = watchWith(violations);
  const old = session('/ws via s1, world 2', 1_000);
  old.moves.sent(1_500);
  watch.answered(old, 1_600);
  watch.abandon(old);
  const newer = session('/ws via s2, world 3', 10_000);
  newer.moves.sent(10_100);
  watch.answered(newer, 10_150);
  watch.joined(newer);
  old.moves.sent(11_000);
  watch.answered(old, 11_050);
  return { watch, stats, newer };
}

describe('the chaos run\'s two-sessions check', () => {
  it('counts an old session acting between two acts of the new one', () => {
    const violations = new Violations();
    const { watch, newer, stats } = ghostActs(violations);
    assert.equal(violations.total, 0, 'not yet: the new session may have gone before');
    newer.moves.sent(12_000);
    watch.answered(newer, 12_040);
    assert.deepEqual(violations.summary().map((v) => [v.kind, v.count]), [['two-sessions', 1]]);
    assert.equal(stats.twoAtOnce, 1);
  });

  it('does not count an old session acting once the new one no longer answers (a hop carried out late)', () => {
    const violations = new Violations();
    const { watch, stats, newer } = ghostActs(violations);
    // The new session's move sent before the ghost acted is answered late: it proves nothing after the ghost.
    newer.moves.sent(10_900);
    watch.answered(newer, 11_200);
    watch.tick(11_050 + 61_000);
    assert.equal(violations.total, 0);
    assert.equal(stats.actedAfterNewerGone, 1);
  });

  it('does not count a late reply to a move sent before the new session joined', () => {
    const violations = new Violations();
    const { watch } = watchWith(violations);
    const old = session('/ws via s1, world 2', 1_000);
    old.moves.sent(1_500);
    old.moves.sent(2_500);
    watch.answered(old, 1_600);
    watch.abandon(old);
    const newer = session('/ws via s2, world 3', 10_000);
    watch.joined(newer);
    // Probes sent while the relaying process was stalled (after the join) go unanswered; the reply to the move of
    // 2.5 s arrives 15 s after the join, when the relay resumes.
    old.moves.sent(11_000);
    old.moves.sent(12_000);
    watch.answered(old, 25_000);
    newer.moves.sent(26_000);
    watch.answered(newer, 26_050);
    assert.equal(violations.total, 0);
    // One more answer than moves sent before the join: some move sent after it was answered; the new session then
    // answers a move sent after that.
    watch.answered(old, 25_100);
    newer.moves.sent(27_000);
    watch.answered(newer, 27_050);
    assert.equal(violations.total, 1);
  });
});
