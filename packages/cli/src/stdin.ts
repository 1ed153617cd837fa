import { createInterface } from 'node:readline';

let lines: AsyncIterableIterator<string> | null = null;

/** The next line of standard input (null at its end); for answers piped in instead of typed. */
export async function readLine(): Promise<string | null> {
  lines ??= createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  const next = await lines.next();
  return next.done ? null : next.value;
}

/** The whole of standard input. */
export async function readAll(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
