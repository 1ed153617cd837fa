import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium; nothing here downloads a browser. Its headless shell
 * (`apt-get install -y chromium-headless-shell`, the same Blink as `chromium`, and what Playwright
 * itself runs for headless pages) is preferred: over the page files it used 44 core-seconds where
 * the full browser in headless mode used 70 (ADR 0137). `IM_CHROMIUM` names another binary.
 */
const CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
export const CHROMIUM_PATH = process.env.IM_CHROMIUM ?? CANDIDATES.find((p) => existsSync(p)) ?? CANDIDATES[0];
export const chromiumAvailable = existsSync(CHROMIUM_PATH);
/** What to install when no browser is found. */
export const CHROMIUM_MISSING = `no Chromium at ${process.env.IM_CHROMIUM ?? CANDIDATES.join(' or ')}: apt-get install -y chromium-headless-shell (CI installs it, see .ci/run)`;

/** Where the checks leave their screenshots (gitignored). */
export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'artifacts', 'screenshots');

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * `describe` when Chromium is installed; otherwise the suite is skipped with a message, except
 * in CI, where a missing browser fails the run (.ci/run installs it).
 */
export function describeInChromium(name: string, fn: () => void): void {
  if (chromiumAvailable) return describe(name, fn);
  if (process.env.CI) {
    describe(name, () => {
      it('needs Chromium', () => {
        throw new Error(CHROMIUM_MISSING);
      });
    });
    return;
  }
  describe.skip(`${name} (skipped: ${CHROMIUM_MISSING})`, fn);
}

export interface OfflineBrowser {
  context: BrowserContext;
  /** Every request (HTTP or WebSocket) the pages tried to send anywhere but `origin`; each was refused. */
  outside: string[];
  newPage(): Promise<Page>;
  /**
   * Saves a screenshot as SCREENSHOT_DIR/<name>.png and returns its path: the full page, or
   * with `fullPage: false` what the window shows (a page many screens long costs seconds to encode).
   */
  screenshot(page: Page, name: string, opts?: { fullPage?: boolean }): Promise<string>;
  close(): Promise<void>;
}

/** Whether a URL is on the service's origin, or local to the page (data:, blob:, about:). */
function isLocal(url: string, origin: string): boolean {
  if (/^(data|blob|about):/.test(url)) return true;
  try {
    const u = new URL(url);
    const o = new URL(origin);
    return u.host === o.host && (u.protocol === o.protocol || u.protocol === o.protocol.replace('http', 'ws'));
  } catch {
    return false;
  }
}

/**
 * Every connection that is not to the machine itself goes to a proxy on a port nothing listens
 * on (the discard port), so it fails as if the machine were offline; loopback bypasses a proxy
 * by default. Requests are not intercepted: Playwright's routing would turn the browser's HTTP
 * cache off, and each page would fetch and compile the app's bundle again.
 */
const OFFLINE = ['--proxy-server=http://127.0.0.1:9'];

/**
 * Headless Chromium that can reach nothing but the machine itself; every request (HTTP or
 * WebSocket) to anywhere but `origin` (and the `also` origins) is recorded, so a test can assert
 * that none was made.
 */
export async function openOfflineBrowser(origin: string, also: string[] = []): Promise<OfflineBrowser> {
  const origins = [origin, ...also];
  const profile = mkdtempSync(join(tmpdir(), 'im-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...FLAGS, ...OFFLINE],
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  const outside: string[] = [];
  const record = (url: string) => {
    if (!origins.some((o) => isLocal(url, o))) outside.push(url);
  };
  context.on('request', (request) => record(request.url()));
  const watch = (page: Page) => page.on('websocket', (ws) => record(ws.url()));
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    context,
    outside,
    newPage: () => context.newPage(),
    async screenshot(page, name, opts = {}) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: opts.fullPage ?? true });
      return path;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
