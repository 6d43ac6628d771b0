/** How often one player may speak in public chat: a sliding window (pure; the chat area keeps one per player). */
import { GameError } from './refusal.ts';

/** At most CHAT_BURST messages in any CHAT_WINDOW_MS. */
export const CHAT_BURST = 5;
export const CHAT_WINDOW_MS = 5_000;

export class ChatLimiter {
  private readonly sent: number[] = [];

  /** Counts a message sent at `now` (ms), or throws CHAT_RATE_LIMITED and counts nothing. */
  admit(now: number): void {
    while (this.sent.length > 0 && now - this.sent[0] >= CHAT_WINDOW_MS) this.sent.shift();
    if (this.sent.length >= CHAT_BURST) {
      throw new GameError('CHAT_RATE_LIMITED', `At most ${CHAT_BURST} messages every ${CHAT_WINDOW_MS / 1000} seconds`);
    }
    this.sent.push(now);
  }
}
