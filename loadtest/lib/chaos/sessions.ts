/**
 * The "two sessions" check. A bot whose session stops answering does not close it: it keeps the old socket (or SDK
 * room) open as a *ghost*, keeps probing it with `player:move` once a second, and enters again through another
 * process. Two sessions of one character acting at the same time is a violation, shown by their answers: the ghost
 * answers `player:path` to a move sent after the new session joined (so it acted after that join), and the new
 * session answers a move sent after that answer (so it still acted after the ghost did). A new session that joined
 * and then went away before the ghost acted (closed by the server, its world lost) is not a second session at once:
 * the character is in one world at each instant, which is the property (a hop the ghost asked for can be carried out
 * once its stalled process wakes, when the new session's world is already gone). A ghost is let go when the server
 * closes it (its close code is counted: 4012 is the documented "world lost") or a minute after it was superseded.
 */
import type { Violations } from './violations.ts';

/**
 * The `player:move`s a session sent (when) and the `player:path`s it got back. The server answers each accepted move
 * with one `player:path` (docs/protocol.md), so while a session's answers number no more than the moves it sent
 * before some moment, every answer may be the reply to one of those earlier moves — a reply held up on its way (in
 * a stalled process relaying the socket, say) proves nothing about the session after that moment.
 */
export class MoveLedger {
  private readonly sentAt: number[] = [];
  answers = 0;

  sent(at = Date.now()): void {
    this.sentAt.push(at);
  }

  /** Whether some answer so far must reply to a move sent after `at`. */
  answeredMoveAfter(at: number): boolean {
    let before = 0;
    for (const sent of this.sentAt) if (sent <= at) before++;
    return this.answers > before;
  }
}

/** A session as the check sees it: a way to probe it and to close it. */
export interface ProbedSession {
  /** e.g. "/ws via s2, world 1". */
  readonly label: string;
  readonly enteredAt: number;
  readonly moves: MoveLedger;
  probe(step: number): void;
  isOpen(): boolean;
  close(): void;
}

/** Answers later than this after the new session's join count (a frame already on its way is not a second session). */
const GRACE_MS = 200;
const GHOST_TTL_MS = 60_000;
const MAX_GHOSTS = 4;

interface Ghost {
  session: ProbedSession;
  abandonedAt: number;
  /** The session that superseded it (from its join on). */
  newer: ProbedSession | null;
  /** It answered a move sent after the new session joined (a suspect, below). */
  acted: boolean;
  steps: number;
  lastAnswerAt: number;
}

export interface SessionStats {
  ghosts: number;
  ghostAnswers: number;
  /** Ghosts that acted after their new session joined, when the new one had gone by then (not a violation). */
  actedAfterNewerGone: number;
  /** Ghosts that acted while their new session still did (each a violation). */
  twoAtOnce: number;
  closeCodes: Record<string, number>;
}

export class SessionWatch {
  private readonly character: string;
  private readonly violations: Violations;
  private readonly stats: SessionStats;
  private ghosts: Ghost[] = [];
  /**
   * Ghosts that acted after their new session joined: a violation once the new session answers a move sent after
   * that (kept a minute, whether or not the ghost is still open).
   */
  private suspects: Array<{ newer: ProbedSession; actedAt: number; what: string }> = [];

  constructor(character: string, violations: Violations, stats: SessionStats) {
    this.character = character;
    this.violations = violations;
    this.stats = stats;
  }

  /** The bot gave up on this session (it stopped answering) but keeps it open and probed. */
  abandon(session: ProbedSession): void {
    if (!session.isOpen()) return;
    this.stats.ghosts++;
    this.ghosts.push({ session, abandonedAt: Date.now(), newer: null, acted: false, steps: 0, lastAnswerAt: 0 });
    while (this.ghosts.length > MAX_GHOSTS) this.ghosts.shift()!.session.close();
  }

  /** A new session of the character joined: every ghost not yet superseded is from now on. */
  joined(session: ProbedSession): void {
    for (const ghost of this.ghosts) ghost.newer ??= session;
  }

  /** A session answered a `player:move` with `player:path` (for a ghost: proof that it acts for the character). */
  answered(session: ProbedSession, at = Date.now()): void {
    session.moves.answers++;
    this.suspects = this.suspects.filter((suspect) => {
      if (suspect.newer !== session || !session.moves.answeredMoveAfter(suspect.actedAt)) return true;
      this.stats.twoAtOnce++;
      this.violations.add('two-sessions', `${this.character}: ${suspect.what}, and the new session answered a move sent after that, at ${clock(at)}`);
      return false;
    });
    const ghost = this.ghosts.find((g) => g.session === session);
    if (!ghost) return;
    this.stats.ghostAnswers++;
    ghost.lastAnswerAt = at;
    const newer = ghost.newer;
    if (newer === null || at <= newer.enteredAt + GRACE_MS || ghost.acted) return;
    // Only an answer to a move sent after the new session joined proves the old one acted after it.
    if (!session.moves.answeredMoveAfter(newer.enteredAt)) return;
    ghost.acted = true;
    this.suspects.push({
      newer, actedAt: at,
      what: `old session (${session.label}, entered ${clock(session.enteredAt)}) answered player:path at ${clock(at)}, ${((at - newer.enteredAt) / 1000).toFixed(1)} s after the new session (${newer.label}) joined`,
    });
  }

  /**
   * A ghost that answered again before any new session joined was only slow, not gone: the bot takes it back (its
   * new entry would be refused ALREADY_ONLINE while it lives). Undefined when there is none.
   */
  revive(): ProbedSession | undefined {
    const index = this.ghosts.findIndex((g) => g.newer === null && g.lastAnswerAt > g.abandonedAt && g.session.isOpen());
    if (index === -1) return undefined;
    return this.ghosts.splice(index, 1)[0].session;
  }

  /** A session closed by the server: counted by close code. */
  closed(code: number): void {
    this.stats.closeCodes[code] = (this.stats.closeCodes[code] ?? 0) + 1;
  }

  /** Probes every ghost (once a second from the bot's loop) and lets go of the closed and the old ones. */
  tick(now = Date.now()): void {
    this.suspects = this.suspects.filter((suspect) => {
      if (now - suspect.actedAt <= GHOST_TTL_MS) return true;
      this.stats.actedAfterNewerGone++;
      return false;
    });
    this.ghosts = this.ghosts.filter((ghost) => {
      if (!ghost.session.isOpen()) return false;
      if (ghost.newer !== null && now - ghost.newer.enteredAt > GHOST_TTL_MS) {
        ghost.session.close();
        return false;
      }
      ghost.steps++;
      ghost.session.probe(ghost.steps);
      return true;
    });
  }

  closeAll(): void {
    for (const ghost of this.ghosts) ghost.session.close();
    this.ghosts = [];
    this.stats.actedAfterNewerGone += this.suspects.length;
    this.suspects = [];
  }
}

/** Wall-clock time of day with milliseconds, for examples. */
export function clock(at: number): string {
  return new Date(at).toISOString().slice(11, 23);
}
