import { ApiError, type IntroMatchClient } from '@intro-match/client';
import type { Command } from 'commander';
import type open from 'open';
import type { Credential } from '../config';
import { CliError, type Context, errorLine, usageError } from '../context';
import { type Io, readLine } from '../io';
import { fields, table, when } from '../output';
import { onStderr, prompts } from '../prompts';
import { example, run } from '../run';

type Me = Awaited<ReturnType<IntroMatchClient['account']['me']>>['user'];

/** Whether a browser can be opened here: a desktop session, not CI or a pipe. */
function canOpenBrowser(io: Io): boolean {
  const { env } = io;
  if (env.CI || !io.stdout.isTTY) return false;
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Asks on the terminal, or reads a line from a piped stdin. */
async function ask(io: Io, question: string, secret = false): Promise<string> {
  if (io.stdin.isTTY) return (secret ? prompts().password({ message: question, mask: '*' }, onStderr(io)) : prompts().input({ message: question }, onStderr(io))).then((s) => s.trim());
  io.stderr.write(`${question} `);
  const line = await readLine(io);
  // The answer read from a pipe is not echoed: end the question's line.
  io.stderr.write('\n');
  if (line === null) throw usageError(`${question} (no answer on standard input)`);
  return line.trim();
}

function saveSession(ctx: Context, method: Credential['method'], token: string | undefined, apiKey: string | undefined, user: Pick<Me, 'id'> & { email?: string | null; name?: string | null }): Credential {
  const cred: Credential = {
    server: ctx.server,
    ...(token ? { token } : {}),
    ...(apiKey ? { apiKey } : {}),
    method,
    userId: user.id,
    email: user.email ?? null,
    name: user.name ?? null,
    savedAt: new Date().toISOString(),
  };
  ctx.store.saveCredential(ctx.profile, cred);
  ctx.store.updateSettings(ctx.profile, { server: ctx.server });
  if (!ctx.store.currentProfile()) ctx.store.setCurrentProfile(ctx.profile);
  return cred;
}

function signedInOutput(ctx: Context, cred: Credential): void {
  ctx.print({ signedIn: true, profile: ctx.profile, server: ctx.server, method: cred.method, user: { id: cred.userId, email: cred.email, name: cred.name } }, () =>
    ctx.line(`${ctx.colour.green('Signed in')} as ${cred.name || cred.email || cred.userId} on ${ctx.server} (profile ${ctx.profile}, ${cred.method})`),
  );
}

async function deviceLogin(ctx: Context, opts: { browser: boolean }): Promise<void> {
  const api = ctx.anonymous();
  const start = await api.auth.startDeviceLogin();
  ctx.note(`To sign in, open ${ctx.colour.bold(start.verificationUriComplete)}`);
  ctx.note(`and confirm the code ${ctx.colour.bold(start.userCode)} (it expires in ${Math.round(start.expiresIn / 60)} minutes).`);
  if (opts.browser && canOpenBrowser(ctx.io)) {
    // Loaded here, the one place that opens a browser.
    await (require('open') as typeof open)(start.verificationUriComplete).then(
      () => ctx.note('Opened your browser.'),
      () => ctx.note('Could not open a browser; open the address above.'),
    );
  }
  const controller = new AbortController();
  const expiry = setTimeout(() => controller.abort(new CliError('The device code expired before it was approved; run intro login again')), start.expiresIn * 1000);
  try {
    const session = await ctx.wait('Waiting for approval…', api.auth.waitForDeviceLogin(start, { signal: controller.signal }));
    signedInOutput(ctx, saveSession(ctx, 'device', session.token, undefined, session.user));
  } catch (err) {
    if (err instanceof ApiError && err.error === 'expired_token') throw new CliError('The device code expired before it was approved; run intro login again');
    if (err instanceof ApiError && err.error === 'access_denied') throw new CliError('The sign-in was denied in the browser');
    throw err;
  } finally {
    clearTimeout(expiry);
  }
}

async function emailLogin(ctx: Context, email: string | true, code: string | undefined): Promise<void> {
  const address = email === true ? await ask(ctx.io, 'Email address:') : email;
  if (!address) throw usageError('An email address is needed');
  const api = ctx.anonymous();
  // With --code the code mailed by an earlier `intro login --email` is checked; none is sent.
  if (!code) {
    await api.auth.startEmail(address);
    ctx.note(`A sign-in code was sent to ${address}.`);
  }
  const typed = code ?? (await ask(ctx.io, 'Code from the email:'));
  let session;
  try {
    session = await api.auth.verifyEmail(address, typed.replace(/\s+/g, ''));
  } catch (err) {
    // A wrong or expired code is a failed sign-in (1), not "not signed in" (3).
    if (err instanceof ApiError && err.status === 401) throw new CliError(errorLine(err));
    throw err;
  }
  signedInOutput(ctx, saveSession(ctx, 'email', session.token, undefined, session.user));
}

async function apiKeyLogin(ctx: Context, key: string | true): Promise<void> {
  const value = key === true ? ctx.env.INTRO_API_KEY || (await ask(ctx.io, 'API key:', true)) : key;
  if (!value) throw usageError('An API key is needed');
  const api = ctx.anonymous();
  api.auth.useApiKey(value);
  const { user } = await api.account.me();
  signedInOutput(ctx, saveSession(ctx, 'api-key', undefined, value, user));
}

export function register(program: Command): void {
  example(
    program
      .command('login')
      .description('Sign in: the device flow (approve in a browser), an emailed code, or an API key')
      .option('--email [address]', 'sign in with a code sent to this email address')
      .option('--code <code>', 'the code mailed by an earlier intro login --email (asked for when missing)')
      .option('--api-key [key]', 'sign in with an API key (asked for, or INTRO_API_KEY, when no value is given)')
      .option('--no-browser', 'do not open a browser for the device flow')
      .action(
        run(async (ctx, _args, opts: { email?: string | true; code?: string; apiKey?: string | true; browser: boolean }) => {
          if (opts.email && opts.apiKey) throw usageError('Choose one of --email and --api-key');
          if (opts.code && !opts.email) throw usageError('--code goes with --email');
          if (opts.apiKey) return apiKeyLogin(ctx, opts.apiKey);
          if (opts.email) return emailLogin(ctx, opts.email, opts.code);
          return deviceLogin(ctx, opts);
        }),
      ),
    ['intro login', 'intro login --email ada@example.com', 'intro login --email ada@example.com --code 123456', 'intro --server https://intro.example.org login --api-key'],
  );

  example(
    program
      .command('logout')
      .description('Sign out: ends the session on the server and forgets the credential of this profile')
      .action(
        run(async (ctx) => {
          const cred = ctx.store.credential(ctx.profile);
          let serverSignedOut = false;
          if (cred?.token && ctx.server === cred.server) {
            try {
              await ctx.client().auth.signOut();
              serverSignedOut = true;
            } catch (err) {
              // An expired or revoked session is as good as signed out; anything else is reported.
              if (!(err instanceof ApiError && err.status === 401)) throw err;
            }
          }
          const removed = ctx.store.removeCredential(ctx.profile);
          ctx.print({ signedOut: removed, profile: ctx.profile, server: ctx.server, sessionEnded: serverSignedOut }, () =>
            ctx.line(removed ? `Signed out of profile ${ctx.profile}` : `Profile ${ctx.profile} was not signed in`),
          );
        }),
      ),
    ['intro logout', 'intro logout --profile staging'],
  );

  example(
    program
      .command('whoami')
      .description('Who this profile is signed in as, on which server')
      .action(
        run(async (ctx) => {
          const cred = ctx.credential();
          const { user } = await ctx.client().account.me();
          const u = user as Me & { email?: string | null };
          ctx.print({ profile: ctx.profile, server: ctx.server, method: cred.method, user: { id: u.id, name: u.name ?? null, email: u.email ?? null } }, () =>
            ctx.line(fields(ctx.colour, [['name', u.name || '-'], ['email', u.email ?? '-'], ['id', u.id], ['server', ctx.server], ['profile', ctx.profile], ['signed in by', cred.method]])),
          );
        }),
      ),
    ['intro whoami', 'intro whoami --json'],
  );

  const keys = program.command('keys').description('API keys of your account (for scripts and agents)');
  example(
    keys
      .command('create')
      .description('Create an API key; it is shown once')
      .argument('[name]', 'a name to recognise it by', 'intro-cli')
      .option('--agent <agentId>', 'issue it to one of your external agents (its turns are then that agent’s)')
      .action(
        run(async (ctx, [name], opts: { agent?: string }) => {
          const created = await ctx.client().auth.createApiKey({ name, ...(opts.agent ? { agentId: opts.agent } : {}) });
          ctx.print(created, () => {
            const c = created as { key?: string; apiKey?: { id: string; name: string } };
            ctx.line(fields(ctx.colour, [['id', c.apiKey?.id], ['name', c.apiKey?.name], ['key', c.key]]));
            ctx.note('Keep the key now: it is not shown again.');
          });
        }),
      ),
    ['intro keys create ci-bot', 'intro keys create negotiator --agent 6f1c…'],
  );
  example(
    keys
      .command('list')
      .description('List your API keys')
      .action(
        run(async (ctx) => {
          const res = await ctx.client().auth.apiKeys();
          ctx.print(res, () => ctx.line(table(ctx.colour, ['id', 'name', 'created', 'last used'], res.apiKeys.map((k) => [k.id, k.name, when(k.createdAt), when(k.lastUsedAt)]))));
        }),
      ),
    ['intro keys list'],
  );
  example(
    keys
      .command('delete')
      .description('Revoke an API key')
      .argument('<id>', 'the key id (from intro keys list)')
      .action(
        run(async (ctx, [id]) => {
          await ctx.client().auth.deleteApiKey(id);
          ctx.print({ deleted: true, id }, () => ctx.line(`Deleted API key ${id}`));
        }),
      ),
    ['intro keys delete 1b9d…'],
  );
}
