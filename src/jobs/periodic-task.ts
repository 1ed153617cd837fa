import type { Logger } from '../logger';

/**
 * Runs `run` every `intervalMs` in this process, never two runs at once (a slow run makes the
 * next tick a no-op), without keeping the process alive. `stop()` clears the timer and waits for
 * a run in progress. For in-process upkeep that every instance does for itself (following other
 * instances' index changes); durable work belongs on the job queue.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly name: string,
    private readonly run: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.running ??= this.run()
        .then(() => undefined)
        .catch((err) => this.logger.warn({ err }, `${this.name} failed`))
        .finally(() => {
          this.running = null;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
