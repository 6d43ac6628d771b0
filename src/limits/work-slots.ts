/**
 * At most `max` pieces of one kind of work at once, the rest waiting their turn, first come first served; a slot is
 * handed to the next waiter in a later turn of the event loop. For login work (checking a token's account): a
 * storm of logins then runs as a steady stream beside the game instead of all at once — with the embedded database,
 * whose queries run on this very thread, all at once would hold the event loop for as long as all of them take.
 */
export class WorkSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.max || this.waiting.length > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, in a later turn (timers and I/O run in between).
      if (next) setImmediate(next);
      else this.running--;
    }
  }
}
