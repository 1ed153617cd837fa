import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The repository root: where `dist/main.js` runs from. */
const ROOT = join(__dirname, '..', '..');

/**
 * A real service process and its parsed log lines: the compiled `dist/main.js`, as production
 * runs it (test/setup/global-setup.ts compiles src first when it is newer). Through swc-node
 * each start compiled the whole source again: about 1 s more CPU and 1 s more before it listened.
 */
export interface ServiceProcess {
  proc: ChildProcess;
  lines: Array<Record<string, any>>;
  /** Resolves with the first log line matching `pred` (fails on timeout or if the process exits first). */
  waitFor(pred: (line: Record<string, any>) => boolean, ms?: number): Promise<Record<string, any>>;
  exited: Promise<number | null>;
  /** Everything the process wrote on stderr so far. */
  stderr(): string;
  /** SIGTERM, then SIGKILL if it has not exited within `ms`. */
  stop(ms?: number): Promise<number | null>;
}

/**
 * Starts the service as its own process with exactly `env` (plus PATH and HOME), logging JSON
 * lines on stdout that tests wait for ("listening" carries the URL).
 */
export function startServiceProcess(env: Record<string, string>, opts: { ownGroup?: boolean; nodeArgs?: string[] } = {}): ServiceProcess {
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), 'dist/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, as a supervisor would start it, so a test can kill the whole group.
    detached: opts.ownGroup ?? false,
  });
  const lines: Array<Record<string, any>> = [];
  const waiters: Array<{ pred: (l: Record<string, any>) => boolean; resolve: (l: Record<string, any>) => void }> = [];
  let buffered = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const raw = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let line: Record<string, any>;
      try {
        line = JSON.parse(raw);
      } catch {
        continue;
      }
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    lines,
    exited,
    stderr: () => stderr,
    waitFor(pred, ms = 45_000) {
      const seen = lines.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for a log line; stderr: ${stderr.slice(-2000)}`)), ms);
        waiters.push({ pred, resolve: (l) => (clearTimeout(timer), resolve(l)) });
        // A waiter the other line never answers (a mail raced over two instances) ends with the process, timer and all.
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`service exited (${code}) first; stderr: ${stderr.slice(-2000)}`));
        });
      });
    },
    async stop(ms = 20_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return exited;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), ms);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
