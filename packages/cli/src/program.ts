import { Command, CommanderError, Option } from 'commander';
import { register as agent } from './commands/agent';
import { register as auth } from './commands/auth';
import { register as conversations } from './commands/conversations';
import { register as events } from './commands/events';
import { register as intents } from './commands/intents';
import { register as networks } from './commands/networks';
import { register as opportunities } from './commands/opportunities';
import { completionScript } from './completion';
import { errorJson, errorLine, EXIT, exitCodeOf } from './context';
import { example, run } from './run';

export const VERSION = '0.1.0';

/** The whole command tree of `intro`. */
export function buildProgram(): Command {
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
          ctx.print({ shell, script }, () => process.stdout.write(script));
        }),
      ),
    ['intro completion bash > ~/.local/share/bash-completion/completions/intro', 'source <(intro completion zsh)'],
  );
  return program;
}

function forEachCommand(cmd: Command, fn: (c: Command) => void): void {
  fn(cmd);
  for (const c of cmd.commands) forEachCommand(c, fn);
}

/** A usage error in the shape of errorJson's objects. */
const usageJson = (message: string) => ({ error: 'usage', status: null, message: message.replace(/^error: /, '').trim(), detail: null, details: [], exitCode: EXIT.usage });

/** Runs the CLI; resolves with the exit code (0 ok, 1 failure, 2 usage, 3 not signed in). */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
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
      if (json) process.stderr.write(`${JSON.stringify(usageJson(err.message))}\n`);
      else if (err.code === 'intro.usage') process.stderr.write(`${err.message}\n`);
      return EXIT.usage;
    }
    // Ctrl-C at a prompt (@inquirer/prompts) is a cancelled command, not a crash.
    if (err instanceof Error && err.name === 'ExitPromptError') {
      process.stderr.write('intro: cancelled\n');
      return EXIT.failure;
    }
    if (json) process.stderr.write(`${JSON.stringify(errorJson(err))}\n`);
    else process.stderr.write(`intro: ${errorLine(err)}\n`);
    return exitCodeOf(err);
  }
}
