import type * as Inquirer from '@inquirer/prompts';
import { usageError } from './context';
import { type Io, readLine } from './io';

export interface RecoveryField {
  id: string;
  label: string;
  kind: 'single' | 'multi' | 'text';
  options: Array<{ label: string; description: string }>;
}

const OTHER = '\u0000other';

/**
 * @inquirer/prompts, loaded when a terminal is first asked something: it is most of what `intro`
 * loads at start (about 70 ms of CPU of some 90), and a command run from a script or a pipe
 * never prompts.
 */
export function prompts(): typeof Inquirer {
  return require('@inquirer/prompts') as typeof Inquirer;
}

/**
 * Prompts are drawn on stderr, like every other note: stdout carries only the command's output,
 * so `intro intent new --json | jq` still asks on the terminal and pipes one JSON document.
 */
export const onStderr = (io: Io) => ({ input: io.stdin, output: io.stderr });

/** The answer typed on a piped stdin: a number picks that option (several, comma-separated, for multi); anything else is the answer itself. */
function fromLine(field: RecoveryField, line: string): string | string[] {
  const text = line.trim();
  const picks = text.split(',').map((s) => s.trim());
  if (field.options.length && picks.every((p) => /^\d+$/.test(p) && Number(p) >= 1 && Number(p) <= field.options.length)) {
    const labels = picks.map((p) => field.options[Number(p) - 1].label);
    return field.kind === 'multi' ? labels : labels[0];
  }
  return field.kind === 'multi' ? picks.filter(Boolean) : text;
}

/**
 * Asks one recovery question: a select (single), a checkbox list (multi) or a text input,
 * each with room for an answer of one's own. On a terminal through @inquirer/prompts; when
 * standard input is a pipe, the question and its numbered options go to stderr and one line is read.
 */
export async function askRecovery(io: Io, field: RecoveryField): Promise<string | string[]> {
  if (!io.stdin.isTTY) {
    io.stderr.write(`? ${field.label}${field.kind === 'multi' ? ' (numbers, comma-separated, or your own words)' : ''}\n`);
    field.options.forEach((o, i) => io.stderr.write(`  ${i + 1}) ${o.label}${o.description ? ` - ${o.description}` : ''}\n`));
    const line = await readLine(io);
    if (line === null) throw usageError(`No answer to "${field.label}" on standard input`);
    return fromLine(field, line);
  }
  const ON_STDERR = onStderr(io);
  if (field.kind === 'text' || field.options.length === 0) return prompts().input({ message: field.label }, ON_STDERR);
  const choices = field.options.map((o) => ({ name: o.label, value: o.label, description: o.description }));
  if (field.kind === 'single') {
    const { input, select } = prompts();
    const picked = await select({ message: field.label, choices: [...choices, { name: 'Something else…', value: OTHER, description: 'type your own answer' }] }, ON_STDERR);
    return picked === OTHER ? input({ message: field.label }, ON_STDERR) : picked;
  }
  const { checkbox, input } = prompts();
  const picked = await checkbox({ message: field.label, choices }, ON_STDERR);
  const own = await input({ message: 'Anything else? (optional)' }, ON_STDERR);
  return own.trim() ? [...picked, own.trim()] : picked;
}
