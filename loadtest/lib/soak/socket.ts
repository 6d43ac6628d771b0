/**
 * A /ws JSON connection for the soak bots: every wait is bounded, and a closed socket fails the wait at once
 * (the server may be killed at any instant).
 */
import WebSocket from 'ws';

export interface SoakEvent {
  type: string;
  // Payloads are read field by field by the bots.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

/** The socket closed (server killed or restarting) before the awaited event. */
export class SocketClosed extends Error {}
/** The awaited event did not come in time. */
export class WaitTimeout extends Error {}

const KEEP_EVENTS = 2_000;

export class SoakSocket {
  readonly socket: WebSocket;
  /** Absolute index of events[0]: old events are trimmed, cursors stay absolute. */
  private base = 0;
  private events: SoakEvent[] = [];
  private wakers = new Set<() => void>();
  private closed = false;
  /** Called for every event (the bots keep their view of inventory, bank and ground items up to date). */
  onEvent: (event: SoakEvent) => void = () => undefined;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (raw) => {
      let event: SoakEvent;
      try {
        event = JSON.parse(raw.toString()) as SoakEvent;
      } catch {
        return;
      }
      this.events.push(event);
      if (this.events.length > KEEP_EVENTS * 2) {
        const drop = this.events.length - KEEP_EVENTS;
        this.events.splice(0, drop);
        this.base += drop;
      }
      this.onEvent(event);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }

  static open(wsUrl: string, timeoutMs = 5_000): Promise<SoakSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${wsUrl}/ws`, { perMessageDeflate: false, handshakeTimeout: timeoutMs });
      const client = new SoakSocket(socket);
      socket.once('open', () => resolve(client));
      socket.once('error', (error) => reject(error));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
  }

  /**
   * Nothing more can be sent: the socket closed, or its close handshake began. A socket stays CLOSING until the
   * server ends the connection — up to 30 s when the server's process is stopped right after its close frame — and
   * a bot that saw it as open then failed every send at once, in a loop that never waited.
   */
  get isClosed(): boolean {
    return this.closed || this.socket.readyState !== WebSocket.OPEN;
  }

  /** Cursor: waits started from it see only events received afterwards. */
  mark(): number {
    return this.base + this.events.length;
  }

  send(type: string, data: unknown = {}): void {
    if (this.isClosed) throw new SocketClosed('socket closed');
    this.socket.send(JSON.stringify({ type, data }));
  }

  /** The first event from `from` on that matches; throws SocketClosed or WaitTimeout. */
  waitFrom(from: number, match: (e: SoakEvent) => boolean, timeoutMs: number): Promise<SoakEvent> {
    return new Promise((resolve, reject) => {
      let cursor = Math.max(from, this.base);
      const check = (): boolean => {
        for (; cursor < this.base + this.events.length; cursor++) {
          const e = this.events[cursor - this.base];
          if (match(e)) {
            cursor++;
            done();
            resolve(e);
            return true;
          }
        }
        if (this.isClosed) {
          done();
          reject(new SocketClosed('socket closed'));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new WaitTimeout(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const waker = () => void check();
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(waker);
      };
      if (!check()) this.wakers.add(waker);
    });
  }

  close(): void {
    try {
      this.socket.terminate();
    } catch {
      // already gone
    }
  }
}

/** An `error` answering this event (or a rate-limit error). */
export function isErrorFor(e: SoakEvent, type: string): boolean {
  return e.type === 'error' && (e.data?.event === type || e.data?.code === 'RATE_LIMITED');
}
