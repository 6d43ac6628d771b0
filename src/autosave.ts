/**
 * The auto-save timer: every SAVE_INTERVAL seconds each registered saver runs (rooms hook in here), and once
 * more on shutdown. Savers persist only what is safe to lose; item moves are written through when they happen.
 */
import type { Logger } from './logger.ts';

export type Saver = (reason: 'interval' | 'shutdown') => Promise<void>;

export class AutoSave {
  private readonly savers = new Map<string, Saver>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  runs = 0;

  private readonly intervalSeconds: number;
  private readonly logger: Logger;

  constructor(intervalSeconds: number, logger: Logger) {
    this.intervalSeconds = intervalSeconds;
    this.logger = logger;
  }

  register(name: string, saver: Saver): () => void {
    this.savers.set(name, saver);
    return () => this.savers.delete(name);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.runAll('interval'), this.intervalSeconds * 1000);
    this.timer.unref();
  }

  /** Stops the timer and runs every saver one last time. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.runAll('shutdown');
  }

  async runAll(reason: 'interval' | 'shutdown'): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      for (const [name, saver] of this.savers) {
        try {
          await saver(reason);
        } catch (error) {
          this.logger.error({ err: error, saver: name, reason }, 'auto-save failed');
        }
      }
      this.runs++;
    })();
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
  }
}
