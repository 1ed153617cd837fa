import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quietPeriod } from '../helpers/eventually';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process';

/**
 * The embedded PostgreSQL after the service dies by `kill -9` (issue 18, finding 1): it dies
 * with the service, a postmaster orphaned anyway is stopped on the next start, and a start that
 * cannot proceed says why instead of "Start-up failed: undefined".
 */

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function poll(pred: () => boolean, ms = 30_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return pred();
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

describe('the embedded database after the service is killed', () => {
  let dataDir: string;
  const started: ServiceProcess[] = [];
  const env = () => ({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_ENABLED: 'false', JOBS_ENABLED: 'false' });
  const start = () => {
    const p = startServiceProcess(env());
    started.push(p);
    return p;
  };
  const postmaster = () => Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'im-orphan-'));
    chmodSync(dataDir, 0o755);
  });
  afterAll(async () => {
    for (const p of started) await p.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops the postmaster when the service alone is killed, and the next start succeeds', async () => {
    const first = start();
    await first.waitFor((l) => l.msg === 'listening');
    const pg = postmaster();
    expect(alive(pg)).toBe(true);
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(await poll(() => !alive(pg))).toBe(true);

    const second = start();
    const listening = await second.waitFor((l) => l.msg === 'listening');
    expect((await fetch(`${listening.url}/readyz`)).status).toBe(200);
    expect(await second.stop()).toBe(0);
  });

  it('finds and stops a postmaster orphaned from a dead service on the next start', async () => {
    const first = start();
    await first.waitFor((l) => l.msg === 'listening');
    const pg = postmaster();
    // Take away the watchdog first, so the postmaster is left orphaned as before the fix.
    const watchdog = childrenOf(first.proc.pid!).find((pid) => cmdline(pid).includes('im-pg-watchdog'));
    expect(watchdog).toBeDefined();
    process.kill(watchdog!, 'SIGKILL');
    first.proc.kill('SIGKILL');
    await first.exited;
    // The postmaster must outlive its service: a while for it to die in is what shows it did not.
    await quietPeriod(300);
    expect(alive(pg)).toBe(true);

    const second = start();
    const listening = await second.waitFor((l) => l.msg === 'listening');
    expect(second.lines.some((l) => l.msg === 'embedded PostgreSQL: stopping a postmaster left running by a service that is gone' && l.pid === pg)).toBe(true);
    expect(alive(pg)).toBe(false);
    expect((await fetch(`${listening.url}/readyz`)).status).toBe(200);

    // A second service on the same folder while the first runs: refused, naming why.
    const third = start();
    expect(await third.exited).not.toBe(0);
    expect(third.stderr()).toMatch(/DATA_DIR .* is in use by another process \(.*postmaster\.pid names PostgreSQL pid \d+/);
    expect(await second.stop()).toBe(0);
  });
});
