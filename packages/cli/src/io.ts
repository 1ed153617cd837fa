import { createInterface } from 'node:readline';

/** An output stream as the CLI uses it: written to, and asked whether it is a terminal. */
export type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
/** Standard input as the CLI uses it: read as a pipe, or handed to a prompt on a terminal. */
export type Input = NodeJS.ReadableStream & { isTTY?: boolean };
export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * Everything the CLI takes from the process it runs in: its three streams, its environment and
 * the signals that stop a long-running command. The bin passes the real process (processIo);
 * a test passes its own, so the whole program runs in the test's process with captured output,
 * its own environment and its own exit code (main's result; only the bin exits).
 */
export interface Io {
  stdout: Output;
  stderr: Output;
  stdin: Input;
  env: NodeJS.ProcessEnv;
  /** The streams are the process's own, so a child process can inherit them (a terminal stays one). */
  inheritable: boolean;
  /**
   * How requests reach the server: the process's fetch unless given. A test that runs the program
   * in its own process gives each run a fetch with connections of its own, as a new process has,
   * so no run reuses a connection an earlier one left idle (and the server may be closing).
   */
  fetch?: typeof fetch;
  /**
   * Calls `handler` once on the first SIGINT or SIGTERM (a second one is the default action
   * again, so a stuck command can still be killed); returns the way to stop listening.
   */
  onStop(handler: (signal: StopSignal) => void): () => void;
}

/** The real process's. Its streams are looked up when first used: opening stdin takes a handle. */
export function processIo(): Io {
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    inheritable: true,
    onStop(handler) {
      const onInt = () => handler('SIGINT');
      const onTerm = () => handler('SIGTERM');
      process.once('SIGINT', onInt);
      process.once('SIGTERM', onTerm);
      return () => {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
      };
    },
  };
}

// One line reader per input: a second reader on the same stream would lose what the first buffered.
const readers = new WeakMap<Input, AsyncIterableIterator<string>>();

/** The next line of standard input (null at its end); for answers piped in instead of typed. */
export async function readLine(io: Io): Promise<string | null> {
  let lines = readers.get(io.stdin);
  if (!lines) {
    lines = createInterface({ input: io.stdin, terminal: false })[Symbol.asyncIterator]();
    readers.set(io.stdin, lines);
  }
  const next = await lines.next();
  return next.done ? null : next.value;
}

/** The whole of standard input. */
export async function readAll(io: Io): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of io.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
