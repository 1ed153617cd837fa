import { TokenBuckets } from '../../src/rest/token-buckets';

describe('TokenBuckets (the in-memory request budget)', () => {
  const WINDOW = 60_000;

  it('lets a caller spend the whole budget at once, then refuses with the wait for one token', () => {
    const b = new TokenBuckets(3, WINDOW);
    expect([1, 2, 3].map(() => b.take('a', 1000))).toEqual([
      { allowed: true, remaining: 2, resetMs: 20_000, retryMs: 0 },
      { allowed: true, remaining: 1, resetMs: 40_000, retryMs: 0 },
      { allowed: true, remaining: 0, resetMs: 60_000, retryMs: 0 },
    ]);
    expect(b.take('a', 1000)).toEqual({ allowed: false, remaining: 0, resetMs: 60_000, retryMs: 20_000 });
    // Half-way to the next token.
    expect(b.take('a', 11_000)).toMatchObject({ allowed: false, retryMs: 10_000 });
    expect(b.policy).toBe('3;w=60');
  });

  it('earns requests back continuously, never beyond the budget', () => {
    const b = new TokenBuckets(60, WINDOW);
    for (let i = 0; i < 60; i++) b.take('a', 0);
    expect(b.take('a', 0).allowed).toBe(false);
    // One token a second.
    expect(b.take('a', 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(b.take('a', 1500).allowed).toBe(false);
    expect(b.take('a', 10 * WINDOW)).toMatchObject({ allowed: true, remaining: 59 });
  });

  it('keeps callers apart', () => {
    const b = new TokenBuckets(1, WINDOW);
    expect(b.take('a', 0).allowed).toBe(true);
    expect(b.take('a', 0).allowed).toBe(false);
    expect(b.take('b', 0).allowed).toBe(true);
  });

  it('forgets callers whose bucket has refilled, once a window has passed', () => {
    const b = new TokenBuckets(2, WINDOW);
    b.take('idle', 0);
    b.take('busy', 0);
    b.take('busy', 0);
    expect(b.size).toBe(2);
    // At 45 s 'busy' spends again; at 60 s 'idle' is whole and goes, 'busy' (one token of two) stays.
    b.take('busy', 45_000);
    b.take('new', WINDOW);
    expect(b.size).toBe(2);
    expect(b.take('busy', WINDOW)).toEqual({ allowed: true, remaining: 0, resetMs: WINDOW, retryMs: 0 });
    expect(b.take('idle', WINDOW)).toMatchObject({ allowed: true, remaining: 1 });
  });
});
