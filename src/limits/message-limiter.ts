/**
 * Per-connection WebSocket message limit (WS_MESSAGES_PER_SECOND, 60). Pure: no timers, the caller passes the
 * clock. Exact sliding window: at most `perSecond` messages are allowed in any 1-second span. Messages over the
 * limit are rejected (dropped, with an error event); a connection is told to close (1008, policy violation)
 * when it floods — more than `burstRejects` rejections within one second (default: as many as the limit, i.e.
 * sending at twice the rate) — or when it has kept exceeding the limit for `sustainedMs` (default 5 s).
 */
import { WS_CLOSE } from '../close-codes.ts';

export type MessageVerdict = 'allow' | 'reject' | 'close';

/** What the message limit answers for a connection's next message; the transport and the rooms depend on this only. */
export interface MessageAdmission {
  /** 'allow' handle it · 'reject' drop it with an error event · 'close' the connection keeps flooding. */
  hit(now: number): MessageVerdict;
}

export interface MessageLimiterOptions {
  perSecond: number;
  /** Rejections within one second that close the connection (default: perSecond). */
  burstRejects?: number;
  /** Continuous over-limit time that closes the connection (default 5000 ms). */
  sustainedMs?: number;
  /** False: everything is allowed (DISABLE_RATE_LIMIT). */
  enabled?: boolean;
  /** Called for each rejected message (metrics). */
  onReject?: () => void;
}

/** WebSocket close code for a flooding client (RFC 6455: policy violation). */
export const FLOOD_CLOSE_CODE = WS_CLOSE.POLICY_VIOLATION;
const WINDOW_MS = 1000;

export class MessageRateLimiter implements MessageAdmission {
  private readonly perSecond: number;
  private readonly burstRejects: number;
  private readonly sustainedMs: number;
  private readonly enabled: boolean;
  private readonly onReject: (() => void) | undefined;
  /** Times of the last `perSecond` allowed messages, a ring buffer. */
  private readonly allowedAt: Float64Array;
  private next = 0;
  private count = 0;
  private rejectWindowStart = -Infinity;
  private rejectsInWindow = 0;
  private floodingSince: number | undefined;
  private lastReject = -Infinity;
  private closed = false;

  constructor(options: MessageLimiterOptions) {
    if (!Number.isInteger(options.perSecond) || options.perSecond < 1) throw new RangeError('perSecond must be a positive integer');
    this.perSecond = options.perSecond;
    this.burstRejects = options.burstRejects ?? options.perSecond;
    this.sustainedMs = options.sustainedMs ?? 5000;
    this.enabled = options.enabled ?? true;
    this.onReject = options.onReject;
    this.allowedAt = new Float64Array(options.perSecond);
  }

  /** Call once per received message; `now` in milliseconds (e.g. performance.now()). */
  hit(now: number = performance.now()): MessageVerdict {
    if (!this.enabled) return 'allow';
    if (this.closed) return 'close';
    if (this.count < this.perSecond || now - this.allowedAt[this.next] >= WINDOW_MS) {
      this.allowedAt[this.next] = now;
      this.next = (this.next + 1) % this.perSecond;
      this.count = Math.min(this.count + 1, this.perSecond);
      if (now - this.lastReject >= WINDOW_MS) this.floodingSince = undefined;
      return 'allow';
    }
    return this.reject(now);
  }

  private reject(now: number): MessageVerdict {
    this.onReject?.();
    if (now - this.rejectWindowStart >= WINDOW_MS) {
      this.rejectWindowStart = now;
      this.rejectsInWindow = 0;
    }
    this.rejectsInWindow++;
    if (this.floodingSince === undefined || now - this.lastReject >= WINDOW_MS) this.floodingSince = now;
    this.lastReject = now;
    if (this.rejectsInWindow > this.burstRejects || now - this.floodingSince >= this.sustainedMs) {
      this.closed = true;
      return 'close';
    }
    return 'reject';
  }
}
