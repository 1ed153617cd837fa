import { Command, CommanderError, Option } from 'commander';
import { register as agent } from './commands/agent';
import { register as auth } from './commands/auth';
import { register as conversations } from './commands/conversations';
import { register as events } from './commands/events';
import { register as intents } from './commands/intents';
import { register as networks } from './commands/networks';
import { register as opportunities } from './commands/opportunities';
import { completionScript } from './completion';
import { bindIo, colourWanted, errorJson, errorLine, EXIT, exitCodeOf } from './context';
import { type Io, processIo } from './io';
import { example, run } from './run';

export const VERSION = '0.1.0';

/** The whole command tree of `intro`, reading and writing through `io`. */
export function buildProgram(io: Io = processIo()): Command {
  const program = new Command('intro')
    .version(VERSION)
    .description('The command-line client of Intro Match: sign in, publish intents, discover, negotiate, introduce.')
    // Usage errors throw (mapped to exit code 2) instead of exiting inside commander.
    .exitOverride()
    .addOption(new Option('--json', 'print JSON with stable fields instead of text'))
    .addOption(new Option('--server <url>', 'the service to talk to (default: INTRO_SERVER, else the profile’s, else http://localhost:3001)'))
    .addOption(new Option('--profile <name>', 'the credentials profile (default: INTRO_PROFILE, else the current one, else "default")'))
    .showSuggestionAfterError(true)
    // Each command's --help also lists --json, --server and --profile.
    .configureHelp({ showGlobalOptions: true });
  example(program, ['intro login', 'intro intent new "Looking for a seed investor in climate software"', 'intro discover 3fa85f64', 'intro agent run -- node negotiator.js']);

  auth(program);
  networks(program);
  intents(program);
  opportunities(program);
  conversations(program);
  events(program);
  agent(program);

  example(
    program
      .command('completion')
      .description('Print a shell completion script (bash or zsh)')
      .argument('[shell]', 'bash or zsh', 'bash')
      .action(
        run(async (ctx, [shell]) => {
          if (shell !== 'bash' && shell !== 'zsh') throw new CommanderError(EXIT.usage, 'intro.usage', `error: completion is for bash or zsh, not ${shell}`);
          const script = completionScript(program, shell);
          ctx.print({ shell, script }, () => ctx.out(script));
        }),
      ),
    ['intro completion bash > ~/.local/share/bash-completion/completions/intro', 'source <(intro completion zsh)'],
  );
  bindIo(program, io);
  // Help, --version and commander's own usage errors go to the Io's streams too. Set on every
  // command: a subcommand copies its parent's settings only when it is created.
  const hasColours = (stream: Io['stdout']) => () => colourWanted(io.env, Boolean(stream.isTTY));
  const output = {
    writeOut: (s: string) => void io.stdout.write(s),
    writeErr: (s: string) => void io.stderr.write(s),
    // As commander's own: no width off a terminal (its typing says number; it takes undefined).
    getOutHelpWidth: () => (io.stdout.isTTY ? io.stdout.columns : undefined) as number,
    getErrHelpWidth: () => (io.stderr.isTTY ? io.stderr.columns : undefined) as number,
    getOutHasColors: hasColours(io.stdout),
    getErrHasColors: hasColours(io.stderr),
  };
  forEachCommand(program, (cmd) => cmd.configureOutput(output));
  return program;
}

function forEachCommand(cmd: Command, fn: (c: Command) => void): void {
  fn(cmd);
  for (const c of cmd.commands) forEachCommand(c, fn);
}

/** A usage error in the shape of errorJson's objects. */
const usageJson = (message: string) => ({ error: 'usage', status: null, message: message.replace(/^error: /, '').trim(), detail: null, details: [], exitCode: EXIT.usage });

/**
 * Runs the CLI on `argv` (node's: the program and script first) with `io`; resolves with the
 * exit code (0 ok, 1 failure, 2 usage, 3 not signed in). Exiting is the caller's: the bin exits
 * the process, a test reads the code.
 */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const program = buildProgram(io);
  const { stderr } = io;
  // Words after `--` belong to the bridged program (intro agent run -- cmd --json).
  const end = argv.indexOf('--');
  const json = (end >= 0 ? argv.slice(0, end) : argv).includes('--json');
  // With --json a usage error is reported as the JSON object below, not commander's text.
  if (json) forEachCommand(program, (cmd) => cmd.configureOutput({ outputError: () => undefined }));
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
      if (json) stderr.write(`${JSON.stringify(usageJson(err.message))}\n`);
      else if (err.code === 'intro.usage') stderr.write(`${err.message}\n`);
      return EXIT.usage;
    }
    // Ctrl-C at a prompt (@inquirer/prompts) is a cancelled command, not a crash.
    if (err instanceof Error && err.name === 'ExitPromptError') {
      stderr.write('intro: cancelled\n');
      return EXIT.failure;
    }
    if (json) stderr.write(`${JSON.stringify(errorJson(err))}\n`);
    else stderr.write(`intro: ${errorLine(err)}\n`);
    return exitCodeOf(err);
  }
}
