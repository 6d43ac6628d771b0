/**
 * Runs one connection's tasks one after another, in the order they were given. A task given while nothing is in
 * line runs at once, in the caller's turn, and costs no promise when it finishes there (most game events: their
 * handlers need no database). A task that awaits holds every later one back until it has finished.
 */
export type InboxTask = (waited: boolean) => void | Promise<void>;

export class SerialInbox {
  /** Settles when every task given so far has finished; undefined while the only task runs in its caller's turn. */
  private tail: Promise<void> | undefined;
  /** Tasks given and not finished. */
  private pending = 0;
  /** Lets the tasks go that were given while a task ran in its caller's turn (they wait for it). */
  private release: (() => void) | undefined;

  private readonly onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.onError = onError;
  }

  /**
   * Runs `task` now if nothing is in line, else after the tasks before it (`waited` tells it which). Returns
   * nothing when the task finished in this turn, else a promise that settles when it has finished (never rejects:
   * a task's error goes to onError).
   */
  run(task: InboxTask): void | Promise<void> {
    if (this.pending > 0) return this.queue(task);
    this.pending = 1;
    this.tail = undefined;
    let result: void | Promise<void> = undefined;
    try {
      result = task(false);
    } catch (error) {
      this.onError(error);
    }
    const release = this.release;
    this.release = undefined;
    if (result) {
      const settled = this.settle(result);
      if (release) void settled.then(release);
      else this.tail = settled;
      return settled;
    }
    this.pending--;
    release?.();
  }

  private queue(task: InboxTask): Promise<void> {
    const before = this.tail ?? new Promise<void>((resolve) => (this.release = resolve));
    this.pending++;
    const settled = this.settle(before.then(() => task(true)));
    this.tail = settled;
    return settled;
  }

  private settle(task: Promise<void>): Promise<void> {
    return task.then(undefined, this.onError).then(() => {
      this.pending--;
    });
  }
}
