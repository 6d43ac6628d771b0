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

/** Slots of tasks already run that a queue which has not emptied keeps before it lets them go. */
const COMPACT_AFTER = 1024;

export class SlicedQueue {
  private tasks: Array<(() => void) | undefined> = [];
  /** When each task was given, beside `tasks` (kept only for `onWait`). */
  private givenAt: number[] = [];
  private head = 0;
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
    return this.tasks.length - this.head;
  }

  /** Slots the queue holds, run or not (at most COMPACT_AFTER more than `length` once a slice has ended). */
  get slots(): number {
    return this.tasks.length;
  }

  /** Runs `task` in a later slice, after every task given before it. */
  push(task: () => void): void {
    this.tasks.push(task);
    if (this.options.onWait) this.givenAt.push(this.now());
    if (!this.scheduled) {
      this.scheduled = true;
      this.defer(this.slice);
    }
  }

  private readonly slice = (): void => {
    const ends = this.now() + this.options.sliceMs;
    let ran = 0;
    while (this.head < this.tasks.length) {
      if (ran > 0 && ran % this.options.checkEvery === 0 && this.now() > ends) break;
      const task = this.tasks[this.head]!;
      if (this.options.onWait) this.options.onWait(this.now() - this.givenAt[this.head]);
      // Let go of the task at once: a long queue would otherwise hold every frame it ran until it drains.
      this.tasks[this.head++] = undefined;
      ran++;
      try {
        task();
      } catch (error) {
        this.options.onError(error);
      }
    }
    if (this.head < this.tasks.length) {
      // A queue that never empties (a steady stream above what one slice runs) drops the slots already run.
      if (this.head >= COMPACT_AFTER) {
        this.tasks.splice(0, this.head);
        if (this.options.onWait) this.givenAt.splice(0, this.head);
        this.head = 0;
      }
      this.defer(this.slice);
      return;
    }
    this.tasks = [];
    this.givenAt = [];
    this.head = 0;
    this.scheduled = false;
  };
}
