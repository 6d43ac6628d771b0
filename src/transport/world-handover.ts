/**
 * A /ws connection handed over to the process running its world (docs/scaling.md "/ws hand-over"). The connection
 * opens an upstream /ws socket there (src/cluster/ws-relay.ts: signed client address, the client's bearer token),
 * sends `world:enter` with the explicit world number, and waits for the answer: `world:joined` commits the hand-over
 * (from then on frames are copied both ways), an `error` for world:enter is the entry's refusal (the upstream is
 * closed and the connection stays here). The upstream's own `authResult` is swallowed: the client had its own.
 * The upstream may ask the connection to enter another world (`relay:move`, sent by a relayed connection whose
 * world hop or entry targets a world on a third process): the hand-over ends and the connection enters that world.
 */
import WebSocket from 'ws';
import { WS_CLOSE } from '../close-codes.ts';
import { openUpstream, sendableCode, type UpstreamOptions } from '../cluster/ws-relay.ts';
import { GameError } from '../game/refusal.ts';
import { HandoverFailure } from '../../rooms/entry/membership-port.ts';
import { encodeEnvelope } from './envelope.ts';

/** Server-to-server only: a relayed connection asks its entry process to enter another world for it. */
export const RELAY_MOVE_EVENT = 'relay:move';
const MOVE_PREFIX = `{"type":"${RELAY_MOVE_EVENT}"`;
/** Frames a client may send before the upstream socket is open. */
const MAX_PENDING_FRAMES = 32;
/** An upstream that has not answered the entry by then is given up (the client's socket closes with 1012). */
const ENTRY_TIMEOUT_MS = 20_000;

export interface HandoverEvents {
  /** A frame for the client. */
  deliver(text: string): void;
  /** The upstream asked for a move; the hand-over has ended. */
  move(data: Record<string, unknown>): void;
  /** The upstream closed after the entry; `lost` when it vanished (closed without a close frame). */
  closed(code: number, reason: string, lost: boolean): void;
}

function parse(text: string): { type?: unknown; data?: Record<string, unknown> } | undefined {
  try {
    return JSON.parse(text) as { type?: unknown; data?: Record<string, unknown> };
  } catch {
    return undefined;
  }
}

export class WorldHandover {
  /** Resolves once the upstream answered `world:joined` (already delivered); rejects with the refusal. */
  readonly ready: Promise<void>;
  private readonly upstream: WebSocket;
  private readonly pending: string[] = [];
  private markSettled!: () => void;
  private readonly settled = new Promise<void>((resolve) => (this.markSettled = resolve));
  private entered = false;
  private ended = false;

  constructor(options: UpstreamOptions, enter: Record<string, unknown>, events: HandoverEvents) {
    const upstream = openUpstream(options);
    this.upstream = upstream;
    this.pending.push(encodeEnvelope('world:enter', enter));
    this.ready = new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        if (this.entered || this.ended) return;
        this.end();
        this.markSettled();
        reject(error);
      };
      const timer = setTimeout(() => fail(new HandoverFailure('the world\'s process did not answer', WS_CLOSE.SERVICE_RESTART, false)), ENTRY_TIMEOUT_MS);
      timer.unref();
      void this.settled.then(() => clearTimeout(timer));
      upstream.on('open', () => {
        for (const frame of this.pending.splice(0)) upstream.send(frame);
      });
      upstream.on('message', (data) => {
        if (this.ended) return;
        const text = data.toString();
        if (this.entered) {
          if (!text.startsWith(MOVE_PREFIX)) return events.deliver(text);
          this.end();
          return events.move(parse(text)?.data ?? {});
        }
        const frame = parse(text);
        if (frame?.type === 'authResult') return;
        if (frame?.type === 'error' && frame.data?.event === 'world:enter') {
          return fail(new GameError(String(frame.data.code), String(frame.data.message)));
        }
        events.deliver(text);
        if (frame?.type === 'world:joined') {
          this.entered = true;
          this.markSettled();
          resolve();
        }
      });
      upstream.on('close', (code, reason) => {
        if (this.ended) return;
        if (!this.entered) return fail(new HandoverFailure('the world\'s process closed the socket', WS_CLOSE.SERVICE_RESTART, code === 1006));
        this.ended = true;
        const lost = code === 1006;
        events.closed(lost ? WS_CLOSE.SERVICE_RESTART : sendableCode(code), lost ? 'the world\'s process is gone; reconnect' : reason.toString(), lost);
      });
      upstream.on('unexpected-response', (_request, response) => {
        const status = response.statusCode;
        fail(new HandoverFailure(status === 401 ? 'authentication failed' : 'refused',
          status === 401 ? WS_CLOSE.AUTH_FAILED : WS_CLOSE.POLICY_VIOLATION, false));
      });
      upstream.on('error', () => fail(new HandoverFailure('the world\'s process cannot be reached', WS_CLOSE.SERVICE_RESTART, true)));
    });
  }

  /** A client frame for the world. */
  forward(text: string): void {
    if (this.ended) return;
    if (this.upstream.readyState === WebSocket.OPEN) this.upstream.send(text);
    else if (this.pending.length < MAX_PENDING_FRAMES) this.pending.push(text);
  }

  /** The client went away: the upstream closes with the client's code (the world then keeps its reconnection seat). */
  clientClosed(code: number, reason: string): void {
    if (this.ended) return;
    this.ended = true;
    if (this.upstream.readyState === WebSocket.OPEN) this.upstream.close(sendableCode(code), reason);
    else this.upstream.terminate();
  }

  private end(): void {
    this.ended = true;
    if (this.upstream.readyState === WebSocket.OPEN) this.upstream.close(WS_CLOSE.NORMAL, 'handed over');
    else this.upstream.terminate();
  }
}
