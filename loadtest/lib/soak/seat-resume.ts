/**
 * What a /ws bot keeps to take its seat back after a dropped connection, as the play page's client does
 * (src/web/play/lib/protocol-client.js, docs/protocol.md): the last `world:joined`'s reconnection token, and when
 * the socket dropped. Within the 20-s grace the bot enters with `reconnectionToken`; afterwards, or once the server
 * says the token holds no seat, with the character. A fresh entry while the world still holds the seat is refused
 * ALREADY_ONLINE until the seat lapses — 20 s — which is how a chaos walker whose entry process was killed came
 * back only 20.6 s after the last fault (test/cluster/entry-process-death.test.ts).
 */

/** How long a world holds a dropped connection's seat (docs/protocol.md). */
export const RECONNECT_GRACE_MS = 20_000;

/** Close codes after which no seat is held: a consented close, or the world lost (4012: enter again). */
const NO_SEAT = new Set([1000, 4012]);

/** Refusals that say the token will never take a seat: enter with the character instead. */
const TOKEN_DEAD = new Set(['INVALID_RECONNECTION_TOKEN', 'FORBIDDEN', 'CHARACTER_NOT_OWNED']);

export class SeatResume {
  private token: string | undefined;
  private droppedAt: number | undefined;

  /** A `world:joined` (an entry, a reconnection or a hop): its token replaces the last. */
  joined(reconnectionToken: unknown): void {
    this.token = typeof reconnectionToken === 'string' ? reconnectionToken : undefined;
    this.droppedAt = undefined;
  }

  /** The socket closed without the bot asking. */
  dropped(code: number, now = Date.now()): void {
    if (NO_SEAT.has(code)) this.forget();
    else if (this.token !== undefined) this.droppedAt ??= now;
  }

  /** The token to enter with now: a drop within the grace period; undefined for an entry with the character. */
  current(now = Date.now()): string | undefined {
    if (this.token === undefined || this.droppedAt === undefined) return undefined;
    if (now - this.droppedAt >= RECONNECT_GRACE_MS) {
      this.forget();
      return undefined;
    }
    return this.token;
  }

  /** An entry with the token was refused: a refusal that says it holds no seat ends the reconnecting. */
  refused(code: string): void {
    if (TOKEN_DEAD.has(code)) this.forget();
  }

  /** No seat to take back (the bot left with `world:leave`, or gave up on the session). */
  forget(): void {
    this.token = undefined;
    this.droppedAt = undefined;
  }
}
