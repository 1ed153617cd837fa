/**
 * Runs `work` every `everyMs` (when `due` says there is something to do) and on demand, never two
 * at once: a `flush()` asked while one runs starts after it, so what was noted before the call is
 * in the one it waits for. The timer does not keep the process alive; `stop()` ends it with a
 * last run. For work that batches writes off the request path (rate budgets, last uses).
 */
export class FlushLoop {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | null = null;

  constructor(
    private readonly work: () => Promise<void>,
    everyMs: number,
    due: () => boolean = () => true,
  ) {
    this.timer = setInterval(() => {
      if (!this.running && due()) void this.flush();
    }, everyMs);
    this.timer.unref();
  }

  flush(): Promise<void> {
    // After the running one, whether it answered or failed.
    const next = (this.running ?? Promise.resolve()).then(
      () => this.work(),
      () => this.work(),
    );
    this.running = next;
    void next.then(
      () => this.settled(next),
      () => this.settled(next),
    );
    return next;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private settled(run: Promise<void>): void {
    if (this.running === run) this.running = null;
  }
}
