import { ApiError, IntroMatchClient } from '@intro-match/client';
import { isNativeError } from 'node:util/types';
import type { Command } from 'commander';
import { createSpinner } from 'nanospinner';
import pc from 'picocolors';
import { ConfigStore, configDir, DEFAULT_SERVER, normalizeServer, type Credential } from './config';
import { type Io, processIo } from './io';

export type Colours = ReturnType<typeof pc.createColors>;

/** Exit codes: 0 ok, 1 failure, 2 usage, 3 not signed in. */
export const EXIT = { ok: 0, failure: 1, usage: 2, signedOut: 3 } as const;

/** A failure the CLI reports as one line and an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
    readonly code = 'failure',
  ) {
    super(message);
  }
}
export const usageError = (message: string) => new CliError(message, EXIT.usage, 'usage');
export const notSignedIn = (message: string) => new CliError(message, EXIT.signedOut, 'not_signed_in');

export interface GlobalOptions {
  json?: boolean;
  server?: string;
  profile?: string;
}

/** The user agent the service records for device sessions and logs. */
export const USER_AGENT = 'intro-cli/0.1.0';

// The Io each program was built with (buildProgram), found from any of its commands.
const ios = new WeakMap<Command, Io>();

export function bindIo(program: Command, io: Io): void {
  ios.set(program, io);
}

/** The Io of the program `cmd` belongs to (the real process for a command built without one). */
export function ioOf(cmd: Command): Io {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const io = ios.get(c);
    if (io) return io;
  }
  return processIo();
}

/**
 * What every command works with: the options (global ones merged), the config store, the
 * profile and server chosen (--profile/INTRO_PROFILE, --server/INTRO_SERVER), the output
 * conventions (--json, colour only on a TTY, a spinner on stderr for waits), and the Io: no
 * command touches `process` itself, so the whole program can run inside another one (the tests).
 */
export class Context {
  readonly opts: GlobalOptions;
  readonly store: ConfigStore;
  readonly profile: string;
  readonly server: string;
  readonly io: Io;
  readonly env: NodeJS.ProcessEnv;
  /** Colours when stdout is a terminal (colourWanted), plain text otherwise. */
  readonly colour: Colours;

  constructor(opts: GlobalOptions, io: Io = processIo()) {
    this.opts = opts;
    this.io = io;
    this.env = io.env;
    this.colour = coloursFor(io);
    const env = io.env;
    this.store = new ConfigStore(configDir(env));
    this.profile = opts.profile || env.INTRO_PROFILE || this.store.currentProfile() || 'default';
    const saved = this.store.settings(this.profile).server ?? this.store.credential(this.profile)?.server;
    this.server = normalizeServer(opts.server || env.INTRO_SERVER || saved || DEFAULT_SERVER);
  }

  static of(cmd: Command): Context {
    return new Context(cmd.optsWithGlobals<GlobalOptions>(), ioOf(cmd));
  }

  get json(): boolean {
    return Boolean(this.opts.json);
  }

  /** The Io's fetch (the process's unless given), naming the CLI in each request's User-Agent. */
  private get fetch(): typeof fetch {
    return withUserAgent(this.io.fetch ?? ((input, init) => fetch(input, init)));
  }

  /** A client with no credential (sign-in, public routes). */
  anonymous(): IntroMatchClient {
    return new IntroMatchClient({ baseUrl: this.server, fetch: this.fetch });
  }

  /** The profile's credential for the chosen server, or exit 3. */
  credential(): Credential {
    const cred = this.store.credential(this.profile);
    if (!cred) throw notSignedIn(`Not signed in (profile ${this.profile}); run: intro login`);
    if (normalizeServer(cred.server) !== this.server) {
      throw notSignedIn(`Profile ${this.profile} is signed in to ${cred.server}, not ${this.server}; run: intro login --server ${this.server} (or pick another --profile)`);
    }
    return cred;
  }

  /** A client with the profile's credential. */
  client(): IntroMatchClient {
    const cred = this.credential();
    return new IntroMatchClient({ baseUrl: this.server, token: cred.token, apiKey: cred.apiKey, fetch: this.fetch });
  }

  /** Prints `value` as one JSON document (--json) or runs `human`. */
  print(value: unknown, human: () => void): void {
    if (this.json) this.jsonLine(value);
    else human();
  }

  /** One JSON document on its own line on stdout (--json output, one per frame for streams). */
  jsonLine(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /** A line for people on stdout (never in --json mode). */
  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** Text for stdout as it is (no newline added). */
  out(text: string): void {
    this.io.stdout.write(text);
  }

  /** A note on stderr: progress and hints that must not mix with the output. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  /** Runs `work`, showing a spinner on a TTY stderr when it takes longer than a second. */
  async wait<T>(text: string, work: Promise<T>): Promise<T> {
    if (!this.io.stderr.isTTY) return work;
    let spinner: ReturnType<typeof createSpinner> | null = null;
    const timer = setTimeout(() => {
      spinner = createSpinner(text, { stream: this.io.stderr as NodeJS.WriteStream }).start();
    }, 1000);
    try {
      return await work;
    } finally {
      clearTimeout(timer);
      // stop(), not clear(): it also ends the spinner's redraw timer, shows the cursor it hid
      // and drops its signal handlers, so a prompt that follows is not drawn over.
      (spinner as ReturnType<typeof createSpinner> | null)?.stop();
    }
  }
}

const withUserAgent =
  (base: typeof fetch): typeof fetch =>
  (input, init) => {
    if (input instanceof Request) {
      const req = new Request(input, init);
      if (!req.headers.has('user-agent')) req.headers.set('user-agent', USER_AGENT);
      return base(req);
    }
    const headers = new Headers(init?.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', USER_AGENT);
    return base(input, { ...init, headers });
  };

/**
 * Colour only on a terminal: stdout a TTY (TERM not dumb), unless NO_COLOR; FORCE_COLOR forces
 * it. (picocolors' own default also colours whenever CI is set, even into a pipe or a file.)
 */
export function colourWanted(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return isTTY && env.TERM !== 'dumb';
}

/** The colours for output to `io.stdout` (no-ops when colourWanted says no). */
export const coloursFor = (io: Io): Colours => pc.createColors(colourWanted(io.env, Boolean(io.stdout.isTTY)));

/** One readable line for an error, with the server's detail. */
export function errorLine(err: unknown): string {
  if (err instanceof ApiError) {
    const parts = [`${err.status} ${err.error}`];
    const detail = typeof err.body.detail === 'string' ? err.body.detail : null;
    if (detail) parts.push(detail);
    if (err.details.length) parts.push(err.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; '));
    if (Array.isArray(err.body.topics)) parts.push(`topics: ${(err.body.topics as string[]).join(', ')}`);
    return parts.join(': ');
  }
  // isNativeError too: an error made in another realm (fetch's, when the CLI runs inside a
  // test's sandbox) is no instance of this realm's Error.
  if (err instanceof Error || isNativeError(err)) {
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    if (err.message === 'fetch failed' && cause) return `cannot reach the server: ${cause.code ?? cause.message}`;
    return err.message;
  }
  return String(err);
}

/** The exit code an error maps to: 401 is "not signed in" (3). */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof ApiError && err.status === 401) return EXIT.signedOut;
  return EXIT.failure;
}

/** The error as a stable JSON object (--json mode, on stderr). */
export function errorJson(err: unknown): Record<string, unknown> {
  if (err instanceof ApiError) return { error: err.error, status: err.status, message: errorLine(err), detail: err.body.detail ?? null, details: err.details, exitCode: exitCodeOf(err) };
  if (err instanceof CliError) return { error: err.code, status: null, message: err.message, detail: null, details: [], exitCode: err.exitCode };
  return { error: 'failure', status: null, message: errorLine(err), detail: null, details: [], exitCode: EXIT.failure };
}
