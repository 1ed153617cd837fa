import { DatabaseClock, narrowOffset } from '../../src/db/database-clock';

describe('the database clock offset', () => {
  it('a slow reading that agrees with a tight earlier one is narrowed to their overlap', () => {
    const tight = { low: -2, high: -1, at: 1_000 };
    const slow = { low: -300, high: 0, at: 1_500 };
    const narrowed = narrowOffset(tight, slow);
    expect(narrowed.at).toBe(1_500);
    expect(narrowed.low).toBeCloseTo(-2.1, 5); // widened by the drift allowance over 500 ms
    expect(narrowed.high).toBeCloseTo(-0.9, 5);
  });

  it('a reading that no longer overlaps (a clock was stepped) replaces what was known', () => {
    const before = { low: -5_002, high: -5_000, at: 1_000 };
    const after = { low: -3, high: 0, at: 2_000 };
    expect(narrowOffset(before, after)).toEqual(after);
  });

  it('the first reading stands alone', () => {
    const first = { low: -10, high: 4, at: 7 };
    expect(narrowOffset(null, first)).toEqual(first);
  });

  it('carries a request’s arrival over by the tightest offset the readings agree on, even when the latest round trip was slow', async () => {
    // The database runs 1000 ms ahead of this process.
    let delay = 0;
    const clock = new DatabaseClock(async () => {
      const now = new Date(Date.now() + 1000);
      if (delay) await new Promise((r) => setTimeout(r, delay)); // the answer waits in a busy event loop
      return now;
    });
    const arrival = new Date();
    const first = await clock.toDatabaseTime(arrival);
    expect(Math.abs(first.getTime() - arrival.getTime() - 1000)).toBeLessThanOrEqual(5);
    delay = 400;
    const later = new Date();
    const second = await clock.toDatabaseTime(later);
    // A lone reading would put the offset ~200 ms off (the middle of a 400 ms round trip).
    expect(Math.abs(second.getTime() - later.getTime() - 1000)).toBeLessThanOrEqual(5);
  });
});
