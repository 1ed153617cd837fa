/**
 * Where the database's clock stands against this process's clock, as an interval: a reading of
 * `clock_timestamp()` taken between `sent` and `back` (process time) says the offset lies in
 * [reading − back, reading − sent]. One slow round trip (an event loop busy under load) makes a
 * wide interval; an earlier, tighter interval that still agrees with it narrows it. Intervals
 * that no longer overlap mean a clock was stepped, and only the new reading counts.
 */
export interface OffsetInterval {
  low: number;
  high: number;
  /** Process time (ms) of the reading the interval rests on. */
  at: number;
}

/** How fast two clocks may drift apart: 200 ppm, far above what NTP-disciplined clocks show. */
const DRIFT_PER_MS = 2e-4;

/** The interval `prior` allows at `now`, widened by the drift since it was read. */
function aged(prior: OffsetInterval, now: number): OffsetInterval {
  const spread = Math.max(0, now - prior.at) * DRIFT_PER_MS;
  return { low: prior.low - spread, high: prior.high + spread, at: now };
}

/** The offset interval after a new reading: the overlap with what was known, or the reading alone after a step. */
export function narrowOffset(prior: OffsetInterval | null, reading: OffsetInterval): OffsetInterval {
  if (!prior) return reading;
  const known = aged(prior, reading.at);
  const low = Math.max(known.low, reading.low);
  const high = Math.min(known.high, reading.high);
  return low <= high ? { low, high, at: reading.at } : reading;
}

/** Tracks the database clock's offset for one process (one service instance). */
export class DatabaseClock {
  private offset: OffsetInterval | null = null;

  /** `processNow` is this process's clock in ms (a test passes its own, to set round trips exactly). */
  constructor(
    private readonly readDatabaseNow: () => Promise<Date>,
    private readonly processNow: () => number = Date.now,
  ) {}

  /** `processTime` (a time on this process's clock) carried over to the database's clock. */
  async toDatabaseTime(processTime: Date): Promise<Date> {
    return (await this.withReading(processTime, async () => ({ now: await this.readDatabaseNow(), value: null }))).at;
  }

  /**
   * The same, with the database's clock read by `read`, a statement that returns other rows
   * too (so the reading costs no round trip of its own); its `value` is handed back.
   */
  async withReading<T>(processTime: Date, read: () => Promise<{ now: Date; value: T }>): Promise<{ at: Date; value: T }> {
    const sent = this.processNow();
    const reading = await read();
    const now = new Date(reading.now).getTime();
    const back = Math.max(sent, this.processNow());
    this.offset = narrowOffset(this.offset, { low: now - back, high: now - sent, at: back });
    return { at: new Date(processTime.getTime() + (this.offset.low + this.offset.high) / 2), value: reading.value };
  }
}
