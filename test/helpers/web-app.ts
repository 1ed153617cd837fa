import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/**
 * Builds packages/web/dist when it is missing or older than its sources (the same check as
 * `npm run build`), so the app's tests run from a fresh clone too. Takes a while only the first time.
 */
export function ensureWebAppBuilt(): void {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'packages', 'web', 'scripts', 'build-if-stale.mjs')], { stdio: 'pipe', timeout: 180_000 });
}

export interface PageProblems {
  console: string[];
  failed: string[];
}

/**
 * Records what went wrong on a page: console errors, uncaught exceptions, requests that failed
 * and answers of 400 or more. `allowed` lists URL fragments whose failures are expected.
 */
export function watchProblems(page: Page, allowed: RegExp[] = []): PageProblems {
  const p: PageProblems = { console: [], failed: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') p.console.push(m.text());
  });
  page.on('pageerror', (e) => p.console.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => {
    // A stream or fetch cut short by leaving the page is no failure.
    if (r.failure()?.errorText === 'net::ERR_ABORTED') return;
    if (!allowed.some((a) => a.test(r.url()))) p.failed.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !allowed.some((a) => a.test(r.url()))) p.failed.push(`${r.request().method()} ${r.url()}: ${r.status()}`);
  });
  return p;
}
