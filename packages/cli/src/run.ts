import type { Command } from 'commander';
import { Context } from './context';

/**
 * Wraps a command's action: builds the Context from the options (global ones merged) and passes
 * the positional arguments as an array. Errors propagate to the program, which prints one line
 * and exits with the matching code.
 */
export function run<O = Record<string, any>>(fn: (ctx: Context, args: any[], opts: O, cmd: Command) => Promise<void>) {
  return async (...all: unknown[]): Promise<void> => {
    const cmd = all[all.length - 1] as Command;
    const args = all.slice(0, cmd.registeredArguments.length) as any[];
    await fn(Context.of(cmd), args, cmd.opts() as O, cmd);
  };
}

/** Adds examples under --help (every command has at least one). */
export function example(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText('after', `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
