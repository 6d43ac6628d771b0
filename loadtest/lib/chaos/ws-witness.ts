/**
 * A /ws bot that walks, hops between the worlds and sends private messages to its friends in whatever world they
 * are, and is the "two sessions" check's witness (sessions.ts): when an operation goes unanswered it keeps the old
 * socket open and probed, and enters again through another process. Each acknowledgement (`player:path`,
 * `world:hopped`, `chat:privateMessageSent`) is counted; every wait is bounded.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SeatResume } from '../soak/seat-resume.ts';
import { SocketClosed, SoakSocket, WaitTimeout, type SoakEvent } from '../soak/socket.ts';
import { askForMyWorld, bump, pickEntry, Refused, type BotEnv, type ChaosCharacter } from './bot-env.ts';
import { MoveLedger, SessionWatch, type ProbedSession } from './sessions.ts';

class WsSession implements ProbedSession {
  readonly enteredAt = Date.now();
  readonly moves = new MoveLedger();
  readonly socket: SoakSocket;
  readonly entry: string;
  private readonly home: { x: number; z: number };
  world: number;
  private readonly enteredWorld: number;
  /** Closed by the bot itself (its close code says nothing about the server). */
  closedByBot = false;
  /** Out of its world though the socket is open (`world:left` unasked, or `NOT_IN_WORLD`): the bot enters again. */
  outOfWorld = false;
  /** The last `world:joined`'s token (a revived session's is the one to reconnect with). */
  reconnectionToken: unknown;

  constructor(socket: SoakSocket, entry: string, world: number, home: { x: number; z: number }) {
    this.socket = socket;
    this.entry = entry;
    this.world = world;
    this.home = home;
    this.enteredWorld = world;
  }

  /** Where it entered, and the world it is in now when it has moved since (a hop, or a hop the server completed late). */
  get label(): string {
    return `/ws via ${this.entry}, world ${this.enteredWorld}${this.world !== this.enteredWorld ? `, now world ${this.world}` : ''}`;
  }

  probe(step: number): void {
    try {
      this.moves.sent();
      this.socket.send('player:move', { x: this.home.x + (step % 2), z: this.home.z });
    } catch {
      // closed meanwhile
    }
  }

  isOpen(): boolean {
    return !this.socket.isClosed;
  }

  /** A consented leave, then the close (a dropped socket would keep a reconnection seat for 20 s). */
  close(): void {
    // A socket already closing was closed by the server: its close code (when it comes) says whether a seat waits.
    if (this.socket.isClosed) return this.socket.close();
    this.closedByBot = true;
    try {
      this.socket.send('world:leave', {});
      this.socket.socket.close(1000);
    } catch {
      this.socket.close();
    }
  }

  /** Sends an event; resolves with the event `done` accepts, throws Refused on an `error` for it. */
  async request(type: string, data: unknown, done: (e: SoakEvent) => boolean, timeoutMs: number): Promise<SoakEvent> {
    const from = this.socket.mark();
    if (type === 'player:move') this.moves.sent();
    this.socket.send(type, data);
    const e = await this.socket.waitFrom(from, (x) => done(x) || (x.type === 'error' && (x.data?.event === type || x.data?.code === 'RATE_LIMITED')), timeoutMs);
    if (e.type === 'error') throw new Refused(String(e.data?.code));
    return e;
  }
}

export interface WsWitness {
  me: ChaosCharacter;
  lastAckAt: number;
  /** What went wrong last (for the availability check's examples). */
  lastProblem: string;
  /** Its last steps with their times (printed for a bot late after the last fault). */
  trail: string[];
}

const TRAIL_LENGTH = 16;

function note(w: WsWitness, step: string): void {
  w.trail.push(`${new Date().toISOString().slice(11, 23)} ${step}`);
  if (w.trail.length > TRAIL_LENGTH) w.trail.shift();
}

/** How a session reports its end to the bot's loop (a drop by the server: the seat may be taken back). */
type OnClose = (session: WsSession, code: number) => void;

/**
 * One entry attempt through a process — with the reconnection token while `resume` holds one (a dropped
 * connection, within the grace), else with the character; the session, or null (refused, closed, no answer).
 */
async function enter(w: WsWitness, env: BotEnv, watch: SessionWatch, rnd: () => number, resume: SeatResume, onClose: OnClose, avoid?: string): Promise<WsSession | null> {
  const node = pickEntry(env, rnd, avoid);
  if (!node) return null;
  const reconnectionToken = resume.current();
  const world = reconnectionToken || rnd() < 0.3 ? undefined : 1 + Math.floor(rnd() * env.worlds);
  let socket: SoakSocket | null = null;
  note(w, reconnectionToken ? `reconnect through ${node.name}` : `enter through ${node.name}, world ${world ?? 'any'}`);
  try {
    socket = await SoakSocket.open(node.wsUrl, 3_000);
    const from = socket.mark();
    const what = reconnectionToken ? { reconnectionToken } : { characterId: w.me.id, ...(world ? { world } : {}) };
    socket.send('authenticate', { token: w.me.token, ...what });
    const e = await socket.waitFrom(from, (x) => x.type === 'world:joined' || x.type === 'error' || (x.type === 'authResult' && !x.data.success), env.entryTimeoutMs);
    if (e.type !== 'world:joined') {
      const code = String(e.data?.code ?? e.data?.error?.code ?? e.type);
      bump(env.stats.refused, code);
      w.lastProblem = `${reconnectionToken ? 'reconnection' : 'entry'} through ${node.name} refused ${code}`;
      if (reconnectionToken) resume.refused(code);
      note(w, w.lastProblem);
      socket.close();
      return null;
    }
    env.stats.entries++;
    note(w, `joined world ${String(e.data.world)} through ${node.name}`);
    const session = new WsSession(socket, node.name, Number(e.data.world), w.me.home);
    session.reconnectionToken = e.data.reconnectionToken;
    resume.joined(e.data.reconnectionToken);
    socket.onEvent = (event) => {
      if (event.type === 'player:path') watch.answered(session);
      if (event.type === 'world:left' || (event.type === 'error' && event.data?.code === 'NOT_IN_WORLD')) session.outOfWorld = true;
      if (event.type === 'world:joined') {
        session.outOfWorld = false;
        if (typeof event.data?.world === 'number') session.world = event.data.world;
        session.reconnectionToken = event.data?.reconnectionToken;
      }
    };
    socket.socket.on('close', (code) => {
      if (session.closedByBot) return;
      note(w, `${session.label}: closed by the server, ${code}`);
      watch.closed(code);
      onClose(session, code);
    });
    return session;
  } catch (error) {
    if (error instanceof WaitTimeout) env.stats.timeouts++;
    w.lastProblem = `entry through ${node.name}: ${error instanceof WaitTimeout ? 'no answer' : 'socket failed'}`;
    note(w, w.lastProblem);
    socket?.close();
    return null;
  }
}

export async function wsWitnessLoop(w: WsWitness, env: BotEnv, rnd: () => number): Promise<void> {
  const watch = new SessionWatch(w.me.name, env.violations, env.stats.sessions);
  const ticker = setInterval(() => watch.tick(), 1_000);
  let session: WsSession | null = null;
  let avoid: string | undefined;
  const resume = new SeatResume();
  // Only the current session's drop leaves a seat to take back (a ghost's close does not).
  const onClose: OnClose = (closed, code) => {
    if (closed !== session) return;
    resume.joined(closed.reconnectionToken);
    resume.dropped(code);
  };
  const T = env.opTimeoutMs;
  try {
    for (let round = 0; round < 1_000_000 && Date.now() < env.stopAt(); round++) {
      if (!session || !session.isOpen() || session.outOfWorld) {
        session?.close();
        const revived = watch.revive() as WsSession | undefined;
        if (revived) {
          note(w, `${revived.label}: revived (it answered after it was abandoned)`);
          resume.joined(revived.reconnectionToken);
        }
        session = revived ?? await enter(w, env, watch, rnd, resume, onClose, avoid);
        if (!session) {
          await sleep(300 + rnd() * 400);
          continue;
        }
        if (!revived) watch.joined(session);
      }
      const r = rnd();
      try {
        if (r < 0.6) {
          const x = w.me.home.x + Math.floor(rnd() * 3) - 1;
          await session.request('player:move', { x, z: w.me.home.z }, (e) => e.type === 'player:path', T);
          bump(env.stats.acked, 'move');
        } else if (r < 0.8 && env.worlds > 1) {
          const others = Array.from({ length: env.worlds }, (_, i) => i + 1).filter((n) => n !== session!.world);
          const to = others[Math.floor(rnd() * others.length)];
          const hopped = await session.request('world:hop', { world: to }, (e) => e.type === 'world:hopped', T * 2);
          session.world = Number(hopped.data.to);
          bump(env.stats.acked, 'hop');
        } else if (w.me.friends.length > 0) {
          const toId = w.me.friends[Math.floor(rnd() * w.me.friends.length)];
          await session.request('chat:private', { toId, message: `hello ${round}` }, (e) => e.type === 'chat:privateMessageSent', T);
          bump(env.stats.acked, 'private-message');
        }
        w.lastAckAt = Date.now();
      } catch (error) {
        if (error instanceof Refused) {
          bump(env.stats.refused, error.code);
          w.lastProblem = `refused ${error.code}`;
          note(w, `${session.label}: ${w.lastProblem}`);
        } else if (error instanceof WaitTimeout) {
          // The session stopped answering: keep it open and probed, and enter again through another process.
          env.stats.timeouts++;
          w.lastProblem = `${session.label}: no answer`;
          note(w, w.lastProblem);
          avoid = session.entry;
          resume.forget();
          watch.abandon(session);
          askForMyWorld(env, rnd, w.me.token, avoid);
          session = null;
        } else if (error instanceof SocketClosed) {
          // Kept: the next round sees it closed (its close code says whether a seat waits).
          note(w, `${session.label}: closed under a request`);
        } else {
          env.violations.add('bot-error', `${w.me.name}: ${String((error as Error)?.stack ?? error)}`);
          session = null;
        }
      }
      await sleep(100 + rnd() * 200);
    }
  } finally {
    clearInterval(ticker);
    if (session?.isOpen()) {
      await session.request('world:leave', {}, (e) => e.type === 'world:left', 3_000).catch(() => undefined);
      session.close();
    }
    watch.closeAll();
  }
}
