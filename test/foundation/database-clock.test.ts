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
    // The process's clock is the test's, so each round trip takes exactly what the test says
    // (a real one stretches when the machine is busy). The database runs 1000 ms ahead, and
    // reads its clock as soon as the statement arrives; the answer then takes `roundTrip` ms.
    let processMs = 50_000;
    let roundTrip = 2;
    const clock = new DatabaseClock(async () => {
      const now = new Date(processMs + 1000);
      processMs += roundTrip;
      return now;
    }, () => processMs);
    const arrival = new Date(processMs);
    const first = await clock.toDatabaseTime(arrival);
    // A 2 ms round trip puts the offset within 1 ms: the middle of [998, 1000].
    expect(first.getTime() - arrival.getTime()).toBe(999);
    processMs += 5_000;
    roundTrip = 400; // the answer waits in a busy event loop
    const later = new Date(processMs);
    const second = await clock.toDatabaseTime(later);
    // A lone reading would put the offset at 800 (the middle of [600, 1000]); the earlier tight one
    // still agrees with it, widened by the drift allowed over 5.4 s (1.08 ms): the middle of
    // [996.92, 1000], in whole milliseconds.
    expect(second.getTime() - later.getTime()).toBe(998);
  });
});
