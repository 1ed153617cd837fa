import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPageServer, type PageServer } from '../helpers/page-server';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process';

/**
 * SIGTERM on the real process (src/main.ts) with the embedded database: requests already
 * running finish, new connections are refused, the process exits 0 and the embedded
 * PostgreSQL it started is stopped (its postmaster.pid gone, its port closed).
 */

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

async function signIn(base: string, child: ServiceProcess, email: string): Promise<string> {
  const start = await fetch(`${base}/api/auth/email/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  expect(start.status).toBe(202);
  const mail = await child.waitFor((l) => l.mail?.to === email);
  const code = /\b(\d{6})\b/.exec(mail.mail.text)?.[1];
  expect(code).toBeDefined();
  const verify = await fetch(`${base}/api/auth/email/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, code }) });
  expect(verify.status).toBe(200);
  return ((await verify.json()) as { token: string }).token;
}

describe('graceful shutdown on SIGTERM', () => {
  let dataDir: string;
  let pages: PageServer;
  let child: ServiceProcess | null = null;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'im-shutdown-'));
    // When run as root, PostgreSQL runs as another user, which must be able to enter DATA_DIR.
    chmodSync(dataDir, 0o755);
    pages = await startPageServer();
  });

  afterAll(async () => {
    if (child && child.proc.exitCode === null) {
      child.proc.kill('SIGKILL');
      await child.exited;
    }
    await pages.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the running request, refuses new ones, exits 0 and stops the embedded database', async () => {
    child = startServiceProcess({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_ENABLED: 'false',
      JOBS_ENABLED: 'false',
      WEB_FETCH_ALLOW_LOOPBACK_UNSAFE: 'true',
      SHUTDOWN_TIMEOUT_MS: '20000',
    });
    const listening = await child.waitFor((l) => l.msg === 'listening');
    const dbLine = await child.waitFor((l) => l.msg === 'embedded PostgreSQL started');
    const base: string = listening.url;
    const port = Number(new URL(base).port);
    expect(await portOpen(dbLine.port)).toBe(true);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);

    const token = await signIn(base, child, 'shutdown@example.com');

    // A page that answers only after the signal has been sent keeps a request running across it.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const pageReached = new Promise<void>((r) => (reached = r));
    pages.route('/slow', (_req, res) => {
      reached();
      void released.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end(
        '<html><head><title>Slow page</title></head><body><article><h1>Slow page</h1><p>This page answered after the service was told to stop, and the request that read it still completed with its text.</p></article></body></html>',
      ));
    });
    const running = fetch(`${base}/api/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: pages.url('/slow') }),
    });
    await pageReached;

    child.proc.kill('SIGTERM');
    await child.waitFor((l) => l.msg === 'shutting down');
    // The listener closes at once: a new connection is refused while the old request runs.
    for (let i = 0; i < 50 && (await portOpen(port)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await portOpen(port)).toBe(false);
    expect(child.proc.exitCode).toBeNull();

    release();
    const res = await running;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { text?: string; content?: string };
    expect(JSON.stringify(body)).toContain('answered after the service was told to stop');

    expect(await child.exited).toBe(0);
    expect(await portOpen(dbLine.port)).toBe(false);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});
