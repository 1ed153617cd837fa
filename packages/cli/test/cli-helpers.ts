import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Agent } from 'undici';
import type { Io, StopSignal } from '../src/io';
import { main } from '../src/program';

const PKG = join(__dirname, '..');
const ROOT = join(PKG, '..', '..');
const BUILT = join(PKG, 'dist', 'bin.js');

/**
 * How the CLI is started: the built bin (CI runs `npm run cli:build` first); a checkout that has
 * not built it runs the source through @swc-node/register, the same program.
 */
export function binArgs(): string[] {
  return existsSync(BUILT) ? [BUILT] : ['-r', '@swc-node/register', join(PKG, 'src', 'bin.ts')];
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document. */
  json(): any;
  /** stdout's lines, each parsed as JSON. */
  lines(): any[];
}

export interface CliEnv {
  /** The config dir (INTRO_CONFIG_DIR) of this "machine". */
  configDir: string;
  server: string;
  extra?: Record<string, string>;
}

/** Config directories made here; stopAll removes them with the runs. */
const configDirs = new Set<string>();
/** A fresh config dir, as on a new machine. */
export const freshConfigDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'intro-cli-'));
  configDirs.add(dir);
  return dir;
};

function envOf(e: CliEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: e.configDir,
    INTRO_CONFIG_DIR: e.configDir,
    INTRO_SERVER: e.server,
    // As in CI: output into a pipe has no colour even so.
    CI: 'true',
    ...e.extra,
  };
}

/** A running `intro`, as a process or in process, with its output collected as it comes. */
export interface CliRun {
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout or stderr (as `stream`) has a line matching `re`; rejects on timeout or exit. */
  waitFor(stream: 'stdout' | 'stderr', re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** Types `text` on standard input. */
  write(text: string): void;
  /** Ends standard input (after `text`), as a pipe that closes. */
  end(text?: string): void;
  exited: Promise<number | null>;
  /** The exit code, null while it runs. */
  exitCode(): number | null;
  /** SIGTERM (a process: then SIGKILL after 5 s); resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** A running `intro` process. */
export interface CliProcess extends CliRun {
  proc: ChildProcess;
}

/** Every run started here, so a failed test leaves none running (stopAll in afterAll, which also removes the config directories). */
const started = new Set<CliRun>();
export async function stopAll(): Promise<void> {
  await Promise.all([...started].map((p) => p.stop()));
  for (const dir of configDirs) rmSync(dir, { recursive: true, force: true });
  configDirs.clear();
}

function track<T extends CliRun>(run: T): T {
  started.add(run);
  void run.exited.then(() => started.delete(run));
  return run;
}

/** stdout and stderr as they grow, and waits for a pattern in one of them. */
function collector(exited: Promise<unknown>) {
  const out = { stdout: '', stderr: '' };
  const waiters: Array<() => void> = [];
  return {
    out,
    add(stream: 'stdout' | 'stderr', text: string) {
      out[stream] += text;
      waiters.forEach((w) => w());
    },
    waitFor(stream: 'stdout' | 'stderr', re: RegExp, ms = 30_000): Promise<RegExpMatchArray> {
      return new Promise((resolve, reject) => {
        let done = false;
        const check = () => {
          const m = out[stream].match(re);
          if (m && !done) {
            done = true;
            clearTimeout(timer);
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          done = true;
          reject(new Error(`timed out waiting for ${re} on ${stream}; stdout: ${out.stdout.slice(-1500)} stderr: ${out.stderr.slice(-1500)}`));
        }, ms);
        waiters.push(check);
        check();
        void exited.then(() => {
          setTimeout(() => {
            check();
            if (!done) {
              done = true;
              clearTimeout(timer);
              reject(new Error(`intro exited before ${re} on ${stream}; stdout: ${out.stdout.slice(-1500)} stderr: ${out.stderr.slice(-1500)}`));
            }
          }, 20);
        });
      });
    },
  };
}

export function startCli(args: string[], e: CliEnv): CliProcess {
  return watch(spawn(process.execPath, [...binArgs(), ...args], { cwd: ROOT, env: envOf(e), stdio: ['pipe', 'pipe', 'pipe'] }));
}

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * `intro args...` on a terminal: a pseudo-terminal made by util-linux `script`, 120 columns
 * wide (a new one has none), without CI in the environment, as a person's shell runs it.
 * Everything the terminal shows (stdout and stderr, escape codes included) is the handle's
 * stdout; what is written to it is typed. `redirect` sends intro's stdout to that file instead
 * (`intro ... > file`), leaving stderr and the keyboard on the terminal.
 */
export function startOnTerminal(args: string[], e: CliEnv, redirect?: string): CliProcess {
  const command = [process.execPath, ...binArgs(), ...args].map(shellQuote).join(' ');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', HOME: e.configDir, INTRO_CONFIG_DIR: e.configDir, INTRO_SERVER: e.server, TERM: 'xterm', ...e.extra };
  const line = `stty cols 120 rows 40; exec ${command}${redirect ? ` > ${shellQuote(redirect)}` : ''}`;
  return watch(spawn('script', ['-qfec', line, '/dev/null'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] }));
}

function watch(proc: ChildProcess): CliProcess {
  const exited = new Promise<number | null>((resolve) => proc.once('close', (code) => resolve(code)));
  const c = collector(exited);
  proc.stdout!.on('data', (chunk: Buffer) => c.add('stdout', chunk.toString('utf8')));
  proc.stderr!.on('data', (chunk: Buffer) => c.add('stderr', chunk.toString('utf8')));
  proc.stdin!.on('error', () => undefined);
  return track<CliProcess>({
    proc,
    stdout: () => c.out.stdout,
    stderr: () => c.out.stderr,
    exited,
    exitCode: () => proc.exitCode,
    write: (text) => void proc.stdin!.write(text),
    end: (text) => void proc.stdin!.end(text ?? ''),
    waitFor: c.waitFor,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return exited;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  });
}

/**
 * `intro args...` run inside this process: the program itself (main) with an Io of its own, so
 * what it writes is collected, its environment is the machine's alone (as envOf gives a
 * process), its standard input is a pipe and its exit code is what main returns. It behaves as
 * the bin does on pipes (no TTY, so no colour, spinner or prompt widget), at a fraction of the
 * cost of a node process per command; the process-level tests keep proving the bin itself.
 */
export function startInProcess(args: string[], e: CliEnv): CliRun {
  const stdin = new PassThrough();
  const stops = new Set<(signal: StopSignal) => void>();
  let ended: (code: number) => void = () => undefined;
  // Ready before main starts: a command may write before its first await.
  const c = collector(new Promise<number>((resolve) => (ended = resolve)));
  // Collected as written (the callback runs at once), so waitFor sees a line as soon as it is out.
  const sink = (stream: 'stdout' | 'stderr') =>
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        c.add(stream, chunk.toString());
        done();
      },
    });
  // Connections of its own, closed when it ends, as a process's: a run that reused a connection an
  // earlier run left idle could send its request as the server closed it (ECONNRESET).
  const connections = new Agent();
  const io: Io = {
    stdout: sink('stdout'),
    stderr: sink('stderr'),
    stdin,
    env: envOf(e),
    inheritable: false,
    fetch: (input, init) => fetch(input, { ...init, dispatcher: connections } as RequestInit),
    onStop(handler) {
      // Once, as with the process's signals.
      const once = (signal: StopSignal) => {
        stops.delete(once);
        handler(signal);
      };
      stops.add(once);
      return () => void stops.delete(once);
    },
  };
  let code: number | null = null;
  const exited = main(['node', 'intro', ...args], io)
    .then(
      (n) => n,
      // What the bin does with a crash main does not turn into an exit code itself.
      (err) => {
        io.stderr.write(`intro: ${err instanceof Error ? err.message : String(err)}\n`);
        return 1;
      },
    )
    .then(async (n) => {
      await connections.destroy();
      code = n;
      ended(n);
      return n;
    });
  return track<CliRun>({
    stdout: () => c.out.stdout,
    stderr: () => c.out.stderr,
    exited,
    exitCode: () => code,
    write: (text) => void stdin.write(text),
    end: (text) => void stdin.end(text ?? ''),
    waitFor: c.waitFor,
    async stop() {
      if (code !== null) return code;
      // SIGTERM stops what listens for it (events, agent run); anything else waiting on
      // standard input sees it end, as a process whose terminal went away.
      for (const s of [...stops]) s('SIGTERM');
      if (!stdin.writableEnded) stdin.end();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`intro ${args.join(' ')} did not stop within 5 s; stderr: ${c.out.stderr.slice(-1500)}`)), 5000);
      });
      try {
        return await Promise.race([exited, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  });
}

/** Runs `intro args...` as a process to its end (optionally with standard input) and collects what it wrote. */
export async function cli(args: string[], e: CliEnv, input?: string): Promise<CliResult> {
  return finish(startCli(args, e), input);
}

/** The same as cli, in process (startInProcess). */
export async function cliInProcess(args: string[], e: CliEnv, input?: string): Promise<CliResult> {
  return finish(startInProcess(args, e), input);
}

async function finish(p: CliRun, input?: string): Promise<CliResult> {
  p.end(input);
  const code = await p.exited;
  const stdout = p.stdout();
  const stderr = p.stderr();
  return {
    code,
    stdout,
    stderr,
    json: () => {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`not JSON (exit ${code}): ${stdout}\nstderr: ${stderr}`);
      }
    },
    lines: () =>
      stdout
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l)),
  };
}

export async function until<T>(fn: () => Promise<T | undefined | null | false>, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
