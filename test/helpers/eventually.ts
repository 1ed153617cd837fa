/**
 * Polls `check` until it gives a value (anything but undefined, null or false) and returns it;
 * fails naming `what` once `timeoutMs` passed. Tests wait for a condition with this instead of
 * sleeping for a guessed while: a poll ends as soon as the condition holds, and a slow machine
 * only makes it take longer, not fail.
 */
export async function eventually<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  { timeoutMs = 20_000, everyMs = 25 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * A fixed wait in which nothing more may happen, before a test checks that nothing did (no
 * frame twice, no frame of another user, no second turn). An absence cannot be polled for: the
 * wait is the check's window, so it stays fixed. Where a later, positive event can stand in for
 * the window (a frame written after the ones that must not come again), a test waits for that
 * instead.
 */
export function quietPeriod(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
