/**
 * The chaos run's "two sessions" check (loadtest/lib/chaos/sessions.ts, docs/chaos.md): an old session answering a
 * move sent after its character's new session joined is a violation; a reply to a move sent before that join,
 * delivered late (held up in a stalled process that relays the socket), is not.
 */
import assert from 'node:assert/strict';
import { MoveLedger, SessionWatch, type ProbedSession } from '../loadtest/lib/chaos/sessions.ts';
import { Violations } from '../loadtest/lib/chaos/violations.ts';

function session(label: string, enteredAt: number): ProbedSession {
  return { label, enteredAt, moves: new MoveLedger(), probe: () => undefined, isOpen: () => true, close: () => undefined };
}

function watchWith(violations: Violations): SessionWatch {
  return new SessionWatch('C1', violations, { ghosts: 0, ghostAnswers: 0, closeCodes: {} });
}

describe('the chaos run\'s two-sessions check', () => {
  it('counts an answer to a move sent after the new session joined', () => {
    const violations = new Violations();
    const watch = watchWith(violations);
    const old = session('/ws via s1, world 2', 1_000);
    old.moves.sent(1_500);
    watch.answered(old, 1_600);
    watch.abandon(old);
    watch.joined(session('/ws via s2, world 3', 10_000));
    old.moves.sent(11_000);
    watch.answered(old, 11_050);
    assert.deepEqual(violations.summary().map((v) => [v.kind, v.count]), [['two-sessions', 1]]);
  });

  it('does not count a late reply to a move sent before the new session joined', () => {
    const violations = new Violations();
    const watch = watchWith(violations);
    const old = session('/ws via s1, world 2', 1_000);
    old.moves.sent(1_500);
    old.moves.sent(2_500);
    watch.answered(old, 1_600);
    watch.abandon(old);
    watch.joined(session('/ws via s2, world 3', 10_000));
    // Probes sent while the relaying process was stalled (after the join) go unanswered; the reply to the move of
    // 2.5 s arrives 15 s after the join, when the relay resumes.
    old.moves.sent(11_000);
    old.moves.sent(12_000);
    watch.answered(old, 25_000);
    assert.equal(violations.total, 0);
    // One more answer than moves sent before the join: some move sent after it was answered.
    watch.answered(old, 25_100);
    assert.equal(violations.total, 1);
  });
});
