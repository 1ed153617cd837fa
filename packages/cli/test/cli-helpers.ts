import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/** A fresh config dir, as on a new machine. */
export const freshConfigDir = () => mkdtempSync(join(tmpdir(), 'intro-cli-'));

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

/** A running `intro` process with its output collected line by line. */
export interface CliProcess {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout or stderr (as `stream`) has a line matching `re`; rejects on timeout or exit. */
  waitFor(stream: 'stdout' | 'stderr', re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  write(text: string): void;
  exited: Promise<number | null>;
  /** SIGTERM (then SIGKILL after 5 s); resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Every process started here, so a failed test leaves none running (stopAll in afterAll). */
const started = new Set<CliProcess>();
export async function stopAll(): Promise<void> {
  await Promise.all([...started].map((p) => p.stop()));
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
  const out = { stdout: '', stderr: '' };
  const waiters: Array<() => void> = [];
  proc.stdout!.on('data', (c: Buffer) => {
    out.stdout += c.toString('utf8');
    waiters.forEach((w) => w());
  });
  proc.stderr!.on('data', (c: Buffer) => {
    out.stderr += c.toString('utf8');
    waiters.forEach((w) => w());
  });
  proc.stdin!.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => proc.once('close', (code) => resolve(code)));
  const handle: CliProcess = {
    proc,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exited,
    write: (text) => void proc.stdin!.write(text),
    waitFor(stream, re, ms = 30_000) {
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
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return exited;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
  started.add(handle);
  void exited.then(() => started.delete(handle));
  return handle;
}

/** Runs `intro args...` to its end (optionally with standard input) and collects what it wrote. */
export async function cli(args: string[], e: CliEnv, input?: string): Promise<CliResult> {
  const p = startCli(args, e);
  p.proc.stdin!.end(input ?? '');
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
