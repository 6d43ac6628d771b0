/**
 * Runs tasks in the order they were given, in turns of the event loop that each stop once they have run for
 * `sliceMs`. Work that arrives in a burst (hundreds of /ws frames read from their sockets in one poll phase) is
 * then spread over several turns: timers (a world's tick) and other I/O (a health probe) run between the slices
 * instead of after the whole burst. A task that throws is reported to `onError`; the tasks after it still run.
 */
export interface SlicedQueueOptions {
  sliceMs: number;
  /** The clock is read every this many tasks (a task is a few microseconds; reading the clock is not free). */
  checkEvery: number;
  onError: (error: unknown) => void;
  now?: () => number;
  /** How the next slice is scheduled (setImmediate: after the timers and the I/O that waited). */
  defer?: (next: () => void) => void;
  /** Told, as each task starts, how long it waited in the queue (ms, on `now`'s clock; read at each push and start). */
  onWait?: (waitedMs: number) => void;
}

/**
 * How many rounds of `checkEvery` tasks of the other lanes a slice runs even when urgent tasks filled its time: a storm
 * of logins (each a few tens of microseconds when refused or queued) is answered within a second or two while players
 * keep moving (loadtest/storm-bench.ts).
 */
const OTHERS_PER_SLICE = 4;

/** Slots of tasks already run that a queue which has not emptied keeps before it lets them go. */
const COMPACT_AFTER = 1024;

/** One line of tasks, run in the order given. */
class Lane {
  tasks: Array<(() => void) | undefined> = [];
  /** When each task was given, beside `tasks` (kept only for `onWait`). */
  givenAt: number[] = [];
  head = 0;

  get length(): number {
    return this.tasks.length - this.head;
  }

  /** Drops the slots already run (a lane that never empties), or everything once it has emptied. */
  compact(): void {
    if (this.head === this.tasks.length) {
      this.tasks = [];
      this.givenAt = [];
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER) {
      this.tasks.splice(0, this.head);
      this.givenAt.splice(0, this.head);
      this.head = 0;
    }
  }
}

/**
 * Which lane a task waits in: `urgent` (the frames of players in a world) runs before `entries` (authenticated
 * sockets asking to enter), which runs before `others` (logins still authenticating).
 */
export type Priority = 'urgent' | 'entries' | 'others';

const RANK: Record<Priority, number> = { urgent: 0, entries: 1, others: 2 };

/**
 * The lane a source's next task goes to so that its tasks keep their order: the one it wants, unless an earlier task
 * of its own still waits in a later lane (`waiting`), which it then joins.
 */
export function laneInOrder(wanted: Priority, waiting: Priority | undefined): Priority {
  return waiting !== undefined && RANK[waiting] > RANK[wanted] ? waiting : wanted;
}

/**
 * Three lanes: `urgent` tasks run before the others given before them, so a storm of logins does not queue in front of
 * the moves of the players inside; among the logins, one that has authenticated is answered before new ones start
 * (a login under way finishes first). Within a lane, tasks run in the order given.
 */
export class SlicedQueue {
  private readonly lanes: Record<Priority, Lane> = { urgent: new Lane(), entries: new Lane(), others: new Lane() };
  private readonly urgent = this.lanes.urgent;
  private scheduled = false;
  private readonly options: SlicedQueueOptions;
  private readonly now: () => number;
  private readonly defer: (next: () => void) => void;

  constructor(options: SlicedQueueOptions) {
    this.options = options;
    this.now = options.now ?? (() => performance.now());
    this.defer = options.defer ?? ((next) => void setImmediate(next));
  }

  /** Tasks given and not run yet. */
  get length(): number {
    return Object.values(this.lanes).reduce((sum, lane) => sum + lane.length, 0);
  }

  /** Slots the queue holds, run or not (at most COMPACT_AFTER more than `length` per lane once a slice has ended). */
  get slots(): number {
    return Object.values(this.lanes).reduce((sum, lane) => sum + lane.tasks.length, 0);
  }

  /** Runs `task` in a later slice, after every task given before it in its lane (and those waiting in the lanes before it). */
  push(task: () => void, priority: Priority = 'others'): void {
    const lane = this.lanes[priority];
    lane.tasks.push(task);
    if (this.options.onWait) lane.givenAt.push(this.now());
    if (!this.scheduled) {
      this.scheduled = true;
      this.defer(this.slice);
    }
  }

  private readonly slice = (): void => {
    const ends = this.now() + this.options.sliceMs;
    let ran = 0;
    // The other lanes are not starved by a steady stream of urgent tasks: a slice that ran urgent ones still runs up to
    // OTHERS_PER_SLICE × `checkEvery` of theirs (entries first), once the urgent lane is empty or the slice's time is up.
    const othersOwed = OTHERS_PER_SLICE * this.options.checkEvery;
    let othersRan = 0;
    let urgentRan = false;
    let over = false;
    for (;;) {
      if (!over && ran > 0 && ran % this.options.checkEvery === 0 && this.now() > ends) over = true;
      const lane = !over
        ? (this.urgent.length > 0 ? this.urgent : this.nextOther())
        : (urgentRan && othersRan < othersOwed ? this.nextOther() : undefined);
      if (!lane) break;
      if (lane === this.urgent) urgentRan = true;
      else othersRan++;
      const task = lane.tasks[lane.head]!;
      if (this.options.onWait) this.options.onWait(this.now() - lane.givenAt[lane.head]);
      // Let go of the task at once: a long queue would otherwise hold every frame it ran until it drains.
      lane.tasks[lane.head++] = undefined;
      ran++;
      try {
        task();
      } catch (error) {
        this.options.onError(error);
      }
    }
    for (const lane of Object.values(this.lanes)) lane.compact();
    if (this.length > 0) {
      this.defer(this.slice);
      return;
    }
    this.scheduled = false;
  };

  private nextOther(): Lane | undefined {
    const { entries, others } = this.lanes;
    return entries.length > 0 ? entries : others.length > 0 ? others : undefined;
  }
}
