import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Command } from 'commander';
import { startTestApp, type TestApp } from '../../../test/helpers/app';
import { createUser, type TestUser } from '../../../test/helpers/factories';
import { createExternalAgent } from '../../../test/conversations/helpers';
import { eventually } from '../../../test/helpers/eventually';
import { buildProgram } from '../src/program';
import { cliInProcess as cli, cli as cliProcess, freshConfigDir, startInProcess as startCli, startCli as startProcess, stopAll, type CliEnv } from './cli-helpers';

/**
 * Every `intro` command against the real service on its own database clone. Each "machine" is a
 * fresh config dir (INTRO_CONFIG_DIR). The commands run in this process (the program with its own
 * streams, env and exit code: startInProcess), which costs a fraction of a node process each; a
 * few checks run the built bin as a process (cliProcess, startProcess) to prove what only a
 * process shows: exit codes, a JSON error on stderr, a piped stdin, a reader that goes away, and
 * SIGTERM stopping a bridge.
 */
let app: TestApp;
const ADA = 'ada@example.com';
const BEN = 'ben@example.com';

beforeAll(async () => {
  // A device login polls every second rather than five: the logins here wait on it.
  app = await startTestApp({ EARLY_ACCESS: ADA, DEVICE_POLL_INTERVAL_S: '1' });
});
afterAll(async () => {
  await stopAll();
  await app.close();
});
// Each test runs the CLI many times; under a loaded CI machine they take a while.
jest.setTimeout(120_000);

const machine = (extra: Record<string, string> = {}): CliEnv => ({ configDir: freshConfigDir(), server: app.url, extra });

function codeFor(email: string): string {
  const mail = [...app.services.mailer.outbox].reverse().find((m) => m.to === email);
  const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** `intro login --email`, typing the mailed code on standard input when asked. */
async function loginByEmail(env: CliEnv, email: string): Promise<any> {
  const p = startCli(['login', '--email', email, '--json'], env);
  await p.waitFor('stderr', /Code from the email:/);
  p.write(`${codeFor(email)}\n`);
  const code = await p.exited;
  expect({ code, stderr: p.stderr() }).toMatchObject({ code: 0 });
  return JSON.parse(p.stdout());
}

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The session token the CLI saved, to check its effect on the server directly. */
const savedCredential = (env: CliEnv, profile = 'default') => JSON.parse(readFileSync(join(env.configDir, 'credentials.json'), 'utf8')).profiles[profile];

describe('sign-in, profiles and conventions', () => {
  it('login --email asks for the code, saves the session 0600 in the config dir, and whoami reads it', async () => {
    const env = machine();
    const out = await loginByEmail(env, ADA);
    expect(out).toMatchObject({ signedIn: true, profile: 'default', server: app.url, method: 'email', user: { email: ADA, id: expect.any(String) } });
    expect(statSync(join(env.configDir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect(savedCredential(env)).toMatchObject({ server: app.url, token: expect.any(String), method: 'email' });

    const who = await cli(['whoami', '--json'], env);
    expect(who.code).toBe(0);
    expect(who.json()).toEqual({ profile: 'default', server: app.url, method: 'email', user: { id: out.user.id, name: expect.anything(), email: ADA } });
    const human = await cli(['whoami'], env);
    expect(human.stdout).toMatch(new RegExp(`email:\\s+${ADA}`));
    expect(human.stdout).not.toMatch(/\u001b\[/);
    expect((await cli(['whoami'], { ...env, extra: { FORCE_COLOR: '1' } })).stdout).toMatch(/\u001b\[/);
  });

  // As a process's: no run reuses a connection an earlier one left idle, which the server may be
  // closing just as the request goes out (an ECONNRESET seen once in a whole run).
  it('each run in process reaches the server on connections of its own, closed when it ends', async () => {
    const env = machine();
    await loginByEmail(env, ADA);
    const server = app.runtime.server.httpServer;
    const opened: Socket[] = [];
    const onConnection = (socket: Socket) => opened.push(socket);
    server.on('connection', onConnection);
    try {
      for (let run = 1; run <= 2; run++) {
        expect((await cli(['whoami', '--json'], env)).code).toBe(0);
        expect(opened).toHaveLength(run);
        // Ended by the client when the run ended: the server hears it close.
        await eventually(() => opened[run - 1]!.closed, `the connection of run ${run} to close`);
      }
    } finally {
      server.off('connection', onConnection);
    }
  });

  it('login --email --code signs in without a prompt; a wrong code fails with the server detail (exit 1)', async () => {
    const env = machine();
    const p = startCli(['login', '--email', BEN], env);
    await p.waitFor('stderr', /Code from the email:/);
    await p.stop();
    // The code mailed by the run above, given on the command line: it is checked, no new one is sent.
    const ok = await cli(['login', '--email', BEN, '--code', codeFor(BEN)], env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/Signed in as .* \(profile default, email\)/);

    const other = machine();
    const bad = await cli(['login', '--email', 'nobody@example.com', '--code', '000000'], other);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^intro: 4\d\d \w+.*\n$/);
    expect((await cli(['whoami'], other)).code).toBe(3);
  });

  it('login (device flow) prints the code and URL, polls, and is signed in once a session approves it', async () => {
    const env = machine();
    const approver = await createUser(app, { name: 'Device Owner' });
    const p = startCli(['login', '--no-browser', '--json'], env);
    const [, url, userCode] = await p.waitFor('stderr', /open (\S+device\?code=\S+)\s+and confirm the code ([A-Z]{4}-[A-Z]{4})/);
    expect(url).toBe(`http://localhost:3001/device?code=${userCode}`);
    await app.http.post('/api/auth/device/approve').set(approver.auth).send({ userCode }).expect(200);
    expect(await p.exited).toBe(0);
    expect(JSON.parse(p.stdout())).toMatchObject({ signedIn: true, method: 'device', user: { id: approver.user.id, name: 'Device Owner' } });
    const devices = await app.http.get('/api/auth/devices').set('Authorization', `Bearer ${savedCredential(env).token}`).expect(200);
    expect(devices.body.devices.find((d: { current: boolean }) => d.current)).toMatchObject({ kind: 'device', userAgent: 'intro-cli/0.1.0' });
  }, 30_000);

  it('login --api-key, keys create/list/delete; a deleted key is "not signed in" (exit 3)', async () => {
    const env = machine();
    await loginByEmail(env, ADA);
    const created = await cli(['keys', 'create', 'ci-bot', '--json'], env);
    expect(created.code).toBe(0);
    const { key, apiKey } = created.json();
    expect(key).toEqual(expect.any(String));

    const listed = await cli(['keys', 'list', '--json'], env);
    expect(listed.json().apiKeys.map((k: { name: string }) => k.name)).toContain('ci-bot');
    expect((await cli(['keys', 'list'], env)).stdout).toContain('ci-bot');

    const keyed = machine();
    const login = await cli(['login', '--api-key', key, '--json'], keyed);
    expect(login.json()).toMatchObject({ signedIn: true, method: 'api-key', user: { email: ADA } });
    // Asked for on standard input when no value is given.
    const piped = machine();
    expect((await cli(['login', '--api-key'], piped, `${key}\n`)).code).toBe(0);
    expect((await cli(['whoami', '--json'], piped)).json().method).toBe('api-key');

    const del = await cli(['keys', 'delete', apiKey.id, '--json'], env);
    expect(del.json()).toEqual({ deleted: true, id: apiKey.id });
    const after = await cli(['whoami'], keyed);
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/^intro: 401 /);
  });

  it('exit 3 when not signed in, one line, or a JSON error with --json (the built bin, as a process)', async () => {
    const env = machine();
    const res = await cliProcess(['intent', 'list'], env);
    expect(res.code).toBe(3);
    expect(res.stderr).toBe('intro: Not signed in (profile default); run: intro login\n');
    const json = await cliProcess(['whoami', '--json'], env);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr)).toEqual({ error: 'not_signed_in', status: null, message: expect.stringContaining('Not signed in'), detail: null, details: [], exitCode: 3 });
  });

  it('exit 2 for usage errors', async () => {
    const env = machine();
    expect((await cli(['nope'], env)).code).toBe(2);
    expect((await cli(['login', '--bogus'], env)).code).toBe(2);
    expect((await cli(['discover'], env)).code).toBe(2);
    expect((await cli(['networks'], env)).code).toBe(2);
    const bad = await cli(['completion', 'fish'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bash or zsh/);
    expect((await cli(['--version'], env)).stdout.trim()).toBe('0.1.0');

    // With --json a usage error is a JSON object on stderr too, in the shape of the others.
    const missing = await cli(['discover', '--json'], env);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stderr)).toEqual({ error: 'usage', status: null, message: "missing required argument 'intent'", detail: null, details: [], exitCode: 2 });
    const fish = await cli(['completion', 'fish', '--json'], env);
    expect(JSON.parse(fish.stderr)).toMatchObject({ error: 'usage', message: 'completion is for bash or zsh, not fish', exitCode: 2 });
    expect(JSON.parse((await cli(['nope', '--json'], env)).stderr)).toMatchObject({ error: 'usage', message: "unknown command 'nope'", exitCode: 2 });
  });

  it('profiles: --profile and INTRO_PROFILE keep separate credentials; --server and INTRO_SERVER pick the server', async () => {
    const env = machine();
    await loginByEmail(env, ADA);
    const p = startCli(['login', '--email', BEN, '--profile', 'ben'], env);
    await p.waitFor('stderr', /Code from the email:/);
    p.write(`${codeFor(BEN)}\n`);
    expect(await p.exited).toBe(0);

    expect((await cli(['whoami', '--json'], env)).json().user.email).toBe(ADA);
    expect((await cli(['whoami', '--json', '--profile', 'ben'], env)).json().user.email).toBe(BEN);
    expect((await cli(['whoami', '--json'], { ...env, extra: { INTRO_PROFILE: 'ben' } })).json().user.email).toBe(BEN);

    const closed = `http://127.0.0.1:${await closedPort()}`;
    const elsewhere = await cli(['whoami', '--server', closed], env);
    expect(elsewhere.code).toBe(3);
    expect(elsewhere.stderr).toBe(`intro: Profile default is signed in to ${app.url}, not ${closed}; run: intro login --server ${closed} (or pick another --profile)\n`);
    const viaEnv = await cli(['whoami'], { ...env, server: closed });
    expect(viaEnv.code).toBe(3);
    // A server that cannot be reached is a failure with a readable line.
    const down = await cli(['docs', '--server', closed, '--profile', 'nobody'], env);
    expect(down.code).toBe(1);
    expect(down.stderr).toBe('intro: cannot reach the server: ECONNREFUSED\n');
  });

  it('logout ends the session on the server and forgets it', async () => {
    const env = machine();
    await loginByEmail(env, ADA);
    const { token } = savedCredential(env);
    const out = await cli(['logout', '--json'], env);
    expect(out.json()).toEqual({ signedOut: true, profile: 'default', server: app.url, sessionEnded: true });
    await app.http.get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
    expect((await cli(['whoami'], env)).code).toBe(3);
    expect((await cli(['logout'], env)).stdout).toMatch(/was not signed in/);
  });

  it('--help on every command shows an example', () => {
    const program = buildProgram();
    const missing: string[] = [];
    const walk = (cmd: Command, path: string[]) => {
      let text = '';
      cmd.configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s) });
      cmd.outputHelp();
      if (!/Examples?:\n {2}\$ intro/.test(text)) missing.push(path.join(' ') || 'intro');
      for (const c of cmd.commands) if (c.name() !== 'help') walk(c, [...path, c.name()]);
    };
    walk(program, []);
    // Groups (networks, intent...) list their subcommands; every command that runs has an example.
    const groups = ['keys', 'networks', 'intent', 'opportunities', 'negotiation', 'conversations', 'questions', 'agent'];
    expect(missing.filter((m) => !groups.includes(m))).toEqual([]);
  });

  it('completion: a bash script that completes commands, subcommands and options', async () => {
    const env = machine();
    const res = await cli(['completion', 'bash'], env);
    expect(res.code).toBe(0);
    const script = join(env.configDir, 'intro.bash');
    writeFileSync(script, res.stdout);
    const complete = (line: string) => {
      const words = line.split(' ');
      const out = execFileSync('bash', ['-c', `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _intro_complete; printf '%s\\n' "\${COMPREPLY[@]}"`]);
      return out.toString().trim().split('\n');
    };
    expect(complete('intro net')).toEqual(['networks', 'network', 'negotiation', 'negotiations'].filter((w) => w.startsWith('net')));
    expect(complete('intro networks c')).toEqual(['create']);
    expect(complete('intro intent new --')).toEqual(expect.arrayContaining(['--network', '--answer', '--json', '--server', '--help']));
    expect((await cli(['completion', 'zsh'], env)).stdout).toMatch(/bashcompinit/);
    const json = await cli(['completion', 'zsh', '--json'], env);
    expect(json.json()).toEqual({ shell: 'zsh', script: expect.stringMatching(/^# intro completion \(zsh\)[\s\S]*complete -F _intro_complete intro\n$/) });
  });

  it('the config dir is the user’s (~/.config/intro) without INTRO_CONFIG_DIR: the dir 0700, credentials 0600', async () => {
    const env = machine({ INTRO_CONFIG_DIR: '' });
    await loginByEmail(env, ADA);
    const dir = join(env.configDir, '.config', 'intro');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).profiles.default).toMatchObject({ server: app.url, method: 'email', token: expect.any(String) });
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toMatchObject({ currentProfile: 'default', profiles: { default: { server: app.url } } });
    expect((await cli(['whoami', '--json'], env)).json().user.email).toBe(ADA);
  });

  it('profiles for several servers: each profile remembers its server, used when neither --server nor INTRO_SERVER is given', async () => {
    const other = await startTestApp();
    try {
      // No INTRO_SERVER in this machine's environment.
      const env = machine({ INTRO_SERVER: '' });
      const p = startCli(['login', '--server', app.url, '--profile', 'here', '--email', ADA, '--json'], env);
      await p.waitFor('stderr', /Code from the email:/);
      p.write(`${codeFor(ADA)}\n`);
      expect(await p.exited).toBe(0);

      const q = startCli(['login', '--server', other.url, '--profile', 'there', '--email', BEN, '--json'], env);
      await q.waitFor('stderr', /Code from the email:/);
      const mail = [...other.services.mailer.outbox].reverse().find((m) => m.to === BEN)!;
      q.write(`${/\b(\d{6})\b/.exec(mail.text)![1]}\n`);
      expect(await q.exited).toBe(0);

      const onHere = await cli(['whoami', '--json', '--profile', 'here'], env);
      expect(onHere.json()).toMatchObject({ profile: 'here', server: app.url, user: { email: ADA } });
      const onThere = await cli(['whoami', '--json', '--profile', 'there'], env);
      expect(onThere.json()).toMatchObject({ profile: 'there', server: other.url, user: { email: BEN } });
      // The first profile signed in became the current one.
      expect((await cli(['whoami', '--json'], env)).json()).toMatchObject({ profile: 'here', server: app.url });
      // The two accounts are on two services: one's network is not the other's.
      const net = (await cli(['networks', 'create', 'Only here', '--json', '--profile', 'here'], env)).json().network.id;
      const elsewhere = await cli(['networks', 'show', net, '--profile', 'there'], env);
      expect(elsewhere.code).toBe(1);
      expect(elsewhere.stderr).toMatch(/^intro: 404 /);
    } finally {
      await other.close();
    }
  });

  it('a reader that goes away ends intro quietly (exit 0, no stack trace; the built bin, as a process)', async () => {
    const env = machine();
    await loginByEmail(env, ADA);
    const tail = startProcess(['events', '--json'], env);
    await tail.waitFor('stderr', /connected at/);
    // The reader closes the pipe; the next frame is written into it.
    tail.proc.stdout!.destroy();
    expect((await cli(['intent', 'new', 'Looking for a copy editor for a cookbook manuscript, remote is fine.'], env)).code).toBe(0);
    expect(await tail.exited).toBe(0);
    expect(tail.stderr()).not.toMatch(/EPIPE|Error/);
  });
});

describe('route groups', () => {
  let ada: CliEnv;
  let ben: CliEnv;
  let benUser: TestUser;
  let networkId: string;
  let adaIntent: string;
  let benIntent: string;

  beforeAll(async () => {
    ada = machine();
    ben = machine();
    await loginByEmail(ada, ADA);
    const out = await loginByEmail(ben, BEN);
    benUser = { user: { id: out.user.id } } as TestUser;
  });

  it('networks: create, list, show, invite, join, leave, requests', async () => {
    const created = await cli(['networks', 'create', 'Fintech CEE', '--prompt', 'Founders and investors', '--json'], ada);
    expect(created.code).toBe(0);
    networkId = created.json().network.id;
    expect(created.json().network).toMatchObject({ title: 'Fintech CEE', joinPolicy: expect.any(String) });

    const invited = await cli(['networks', 'invite', networkId, BEN, '--json'], ada);
    expect(invited.json()).toMatchObject({ user: { email: BEN }, created: false, alreadyMember: false });
    expect((await cli(['networks', 'invite', networkId, BEN], ada)).stdout).toMatch(/already a member/);

    const listed = await cli(['networks', 'list', '--json'], ben);
    expect(listed.json().networks.map((n: { id: string }) => n.id)).toContain(networkId);
    const shown = await cli(['networks', 'show', networkId, '--json'], ben);
    expect(shown.json().members.map((m: { email: string }) => m.email).sort()).toEqual([ADA, BEN]);
    expect((await cli(['networks', 'show', networkId], ben)).stdout).toMatch(/title:\s+Fintech CEE/);

    const open = (await cli(['networks', 'create', 'Open Club', '--join-policy', 'anyone', '--json'], ada)).json().network.id;
    expect((await cli(['networks', 'list', '--public', '--json'], ben)).json().networks.map((n: { id: string }) => n.id)).toContain(open);
    expect((await cli(['networks', 'join', open, '--json'], ben)).code).toBe(0);
    expect((await cli(['networks', 'list', '--json'], ben)).json().networks.map((n: { id: string }) => n.id)).toContain(open);
    expect((await cli(['networks', 'leave', open], ben)).stdout).toMatch(/Left network/);
    expect((await cli(['networks', 'list', '--json'], ben)).json().networks.map((n: { id: string }) => n.id)).not.toContain(open);

    const closed = (await cli(['networks', 'create', 'Closed Club', '--join-policy', 'invite_only', '--json'], ada)).json().network.id;
    await cli(['networks', 'join', closed], ben);
    const requests = await cli(['networks', 'requests', closed, '--json'], ada);
    expect(requests.code).toBe(0);
    expect(requests.json().joinRequests).toEqual([expect.objectContaining({ userId: benUser.user.id, status: 'pending' })]);
    const approved = await cli(['networks', 'requests', closed, '--approve', benUser.user.id, '--json'], ada);
    expect(approved.code).toBe(0);
    expect((await cli(['networks', 'list', '--json'], ben)).json().networks.map((n: { id: string }) => n.id)).toContain(closed);
    const left = await cli(['networks', 'leave', closed, '--json'], ben);
    expect(left.json()).toMatchObject({ networkId: closed });
    expect((await cli(['networks', 'list', '--json'], ben)).json().networks.map((n: { id: string }) => n.id)).not.toContain(closed);
    // Asked again, and declined this time.
    await cli(['networks', 'join', closed], ben);
    expect((await cli(['networks', 'requests', closed, '--decline', benUser.user.id, '--json'], ada)).json()).toMatchObject({ networkId: closed, userId: benUser.user.id, decision: 'decline' });
    expect((await cli(['networks', 'list', '--json'], ben)).json().networks.map((n: { id: string }) => n.id)).not.toContain(closed);
    expect((await cli(['networks', 'requests', closed, '--approve', 'a', '--decline', 'b'], ada)).code).toBe(2);

    // Without early access, creating answers 403 with the server's words; --request asks instead.
    const refused = await cli(['networks', 'create', 'Mine'], ben);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^intro: 403 /);
    expect((await cli(['networks', 'create', 'Mine', '--request', '--json'], ben)).code).toBe(0);
    expect((await cli(['networks', 'requests', '--json'], ben)).json().requests.map((r: { title: string }) => r.title)).toContain('Mine');
    expect((await cli(['networks', 'create', 'X', '--join-policy', 'sometimes'], ada)).code).toBe(2);
  });

  it('intent new: the prepare loop asks the recovery questions, then creates the intent', async () => {
    const p = startCli(['intent', 'new', 'Looking', 'for', 'a', 'room,', 'in', 'person', '--network', networkId, '--json'], ada);
    await p.waitFor('stderr', /\? What exactly are you looking for\?\n(\s+\d\) .+\n)+/);
    p.write('A room in a shared house, up to $1000 a month\n');
    await p.waitFor('stderr', /\? Where should this happen\?/);
    p.write('East Austin\n');
    expect(await p.exited).toBe(0);
    const out = JSON.parse(p.stdout());
    expect(out).toMatchObject({
      intentId: expect.any(String),
      networkIds: [networkId],
      payload: 'Looking for a room, in person. Looking for: A room in a shared house, up to $1000 a month. Location: East Austin.',
      questionsAsked: ['What exactly are you looking for?', 'Where should this happen?'],
    });

    // Answers given up front; a number picks an option of a single-choice question.
    const preset = await cli(['intent', 'new', 'Looking for a room, in person', '--answer', 'Where should this happen?=Warsaw', '--network', networkId, '--json'], ada, '1\n');
    expect(preset.code).toBe(0);
    expect(preset.json().questionsAsked).toEqual(['What exactly are you looking for?', 'Where should this happen?']);
    expect(preset.json().payload).toMatch(/Location: Warsaw\.$/);

    const rejected = await cli(['intent', 'new', 'hello'], ada);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/^intro: 422 intent_rejected: .+/);
  });

  it('intent list, show, edit, pause, resume, archive, share, unshare', async () => {
    adaIntent = (await cli(['intent', 'new', '--json', '--network', networkId, 'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.'], ada)).json().intentId;
    benIntent = (await cli(['intent', 'new', '--json', '--network', networkId, 'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.'], ben)).json().intentId;

    const list = await cli(['intent', 'list', '--json', '-q', 'savings'], ada);
    expect(list.json().intents.map((i: { id: string }) => i.id)).toEqual([adaIntent]);
    expect((await cli(['intent', 'list'], ada)).stdout).toMatch(/page 1 of 1/);
    const shown = await cli(['intent', 'show', adaIntent.slice(0, 8), '--json'], ada);
    expect(shown.json()).toMatchObject({ intent: { id: adaIntent, status: 'active' }, networkIds: [networkId] });

    const edited = await cli(['intent', 'edit', adaIntent, '--source-type', 'crm', '--source-id', '42', '--json'], ada);
    expect(edited.json()).toMatchObject({ intentId: adaIntent, sourceType: 'crm', sourceId: '42' });
    expect((await cli(['intent', 'edit', adaIntent], ada)).code).toBe(2);

    expect((await cli(['intent', 'pause', adaIntent, '--json'], ada)).json()).toEqual({ intentId: adaIntent, status: 'paused', archivedAt: null });
    const paused = await cli(['discover', adaIntent], ada);
    expect(paused.code).toBe(1);
    expect(paused.stderr).toMatch(/^intro: 409 /);
    expect((await cli(['intent', 'resume', adaIntent, '--json'], ada)).json().status).toBe('active');

    const other = (await cli(['networks', 'create', 'Side', '--json'], ada)).json().network.id;
    expect((await cli(['intent', 'share', adaIntent, other, '--json'], ada)).json().networkIds.sort()).toEqual([networkId, other].sort());
    expect((await cli(['intent', 'unshare', adaIntent, other, '--json'], ada)).json().networkIds).toEqual([networkId]);

    const spare = (await cli(['intent', 'new', '--json', 'Looking for a pixel artist for 32x32 character sprites, paid per sheet.'], ada)).json().intentId;
    const rewritten = await cli(['intent', 'edit', spare, 'Looking for a pixel artist for 16x16 tiles and sprites, paid per sheet.', '--json'], ada);
    expect(rewritten.code).toBe(0);
    expect(rewritten.json()).toMatchObject({ intentId: spare, description: 'Looking for a pixel artist for 16x16 tiles and sprites, paid per sheet.' });
    expect((await cli(['intent', 'show', spare, '--json'], ada)).json().intent.payload).toBe('Looking for a pixel artist for 16x16 tiles and sprites, paid per sheet.');
    const archived = await cli(['intent', 'archive', spare, '--json'], ada);
    expect(archived.json()).toMatchObject({ intentId: spare, archivedAt: expect.any(String) });
    expect((await cli(['intent', 'list', '--json'], ada)).json().intents.map((i: { id: string }) => i.id)).not.toContain(spare);
    expect((await cli(['intent', 'list', '--archived', '--json'], ada)).json().intents.map((i: { id: string }) => i.id)).toContain(spare);
    expect((await cli(['intent', 'show', '00000000-0000-4000-8000-000000000000'], ada)).stderr).toMatch(/^intro: 404 /);
  });

  it('discover, opportunities, negotiation turns, approval, start-chat and conversations', async () => {
    // Both seats are held by external agents, so the turns here are the people's own.
    await createExternalAgent(app, (await cli(['whoami', '--json'], ada)).json().user.id);
    await createExternalAgent(app, benUser.user.id);
    const found = await cli(['discover', adaIntent, '--json'], ada);
    expect(found.code).toBe(0);
    const top = found.json().counterparties[0];
    expect(top).toMatchObject({ intentId: benIntent, networkId, score: expect.any(Number) });
    const table = (await cli(['discover', adaIntent], ada)).stdout;
    expect(table).toMatch(/score/);
    expect(table).toContain(benIntent);

    const opened = await cli(['opportunities', 'open', adaIntent, benIntent, '--json'], ada);
    expect(opened.code).toBe(0);
    const oppId = opened.json().opportunities[0].opportunityId;
    expect((await cli(['opportunities', 'list', '--json'], ben)).json().opportunities.map((o: { opportunityId: string }) => o.opportunityId)).toContain(oppId);
    const card = await cli(['opportunities', 'show', oppId, '--json'], ben);
    expect(card.json()).toMatchObject({ id: oppId, status: 'negotiating', peer: { userId: expect.any(String) } });

    expect((await cli(['negotiation', 'turn', oppId, 'haggle'], ada)).code).toBe(2);
    const notYours = await cli(['negotiation', 'turn', oppId, 'propose', 'hi'], ben);
    expect(notYours.code).toBe(1);
    expect(notYours.stderr).toBe('intro: 403 It is not your turn\n');
    const proposed = await cli(['negotiation', 'turn', oppId, 'propose', 'Seed round meets seed fund; shall we meet?', '--json'], ada);
    expect(proposed.json().negotiation).toMatchObject({ turnCount: 1, outcome: null });
    const timeline = await cli(['negotiation', 'show', oppId], ben);
    expect(timeline.stdout).toMatch(/propose\s+Seed round meets seed fund/);
    expect(timeline.stdout).toMatch(/you may:\s+counter, accept, decline/);
    expect((await cli(['negotiation', 'list', '--state', 'open', '--json'], ben)).json().negotiations.map((n: { opportunityId: string }) => n.opportunityId)).toContain(oppId);
    const accepted = await cli(['negotiation', 'turn', oppId, 'accept', 'Agreed', '--json'], ben);
    expect(accepted.json().negotiation).toMatchObject({ outcome: 'agreed', turnCount: 2 });

    expect((await cli(['opportunities', 'accept', oppId, '--json'], ada)).json()).toMatchObject({ opportunityId: oppId, decision: 'accepted' });
    const twice = await cli(['opportunities', 'accept', oppId], ada);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^intro: 409 already_approved: /);
    const waiting = await cli(['opportunities', 'start-chat', oppId, '--json'], ada);
    expect(waiting.code).toBe(0);
    expect(waiting.json().conversationId).toBeNull();
    expect((await cli(['opportunities', 'start-chat', oppId], ada)).stdout).toMatch(/Waiting for the other owner/);
    expect((await cli(['opportunities', 'accept', oppId, '--json'], ben)).json()).toMatchObject({ opportunityId: oppId, status: 'accepted' });
    const chat = await cli(['opportunities', 'start-chat', oppId, '--json'], ada);
    const conversationId = chat.json().conversationId;
    expect(conversationId).toEqual(expect.any(String));

    const sent = await cli(['conversations', 'send', conversationId, 'Hello', 'Ben!', '--json'], ada);
    expect(sent.json().message.parts).toEqual([{ kind: 'text', text: 'Hello Ben!' }]);
    // Standard input piped into the built bin, as a process.
    expect((await cliProcess(['conversations', 'send', conversationId, '-'], ben, 'Hi Ada, from a pipe\n')).code).toBe(0);
    const shown = await cli(['conversations', 'show', conversationId], ada);
    expect(shown.stdout).toMatch(/you: Hello Ben!\n.*them: Hi Ada, from a pipe/);
    expect((await cli(['conversations', 'list', '--json'], ben)).json().conversations.map((c: { id: string }) => c.id)).toContain(conversationId);
    const dm = await cli(['conversations', 'dm', benUser.user.id, '--json'], ada);
    expect(dm.json().conversation.id).toEqual(expect.any(String));

    // Reject on another opportunity.
    const third = (await cli(['intent', 'new', '--json', '--network', networkId, 'Angel investor in Poland looking for fintech founders raising pre-seed or seed.'], ben)).json().intentId;
    const second = (await cli(['opportunities', 'open', adaIntent, third, '--network', networkId, '--json'], ada)).json().opportunities[0].opportunityId;
    await cli(['negotiation', 'turn', second, 'propose', 'Meet?'], ada);
    await cli(['negotiation', 'turn', second, 'accept', 'Yes'], ben);
    expect((await cli(['opportunities', 'reject', second, '--json'], ben)).json()).toMatchObject({ opportunityId: second, status: 'rejected' });
    expect((await cli(['opportunities', 'list', '--status', 'rejected', '--json'], ben)).json().opportunities.map((o: { opportunityId: string }) => o.opportunityId)).toEqual([second]);
  });

  it('questions: list the agent’s questions and answer one', async () => {
    const adaId = (await cli(['whoami', '--json'], ada)).json().user.id;
    const agent = await createExternalAgent(app, adaId);
    await app.http
      .post(`/api/conversations/agent/h2a?agentId=${agent.agentId}`)
      .set(agent.headers)
      .send({ intentId: adaIntent, entries: [{ kind: 'question', id: 'stage', createdAt: new Date().toISOString(), text: 'Which stage are you raising at?' }] })
      .expect(200);
    const listed = await cli(['questions', 'list', adaIntent, '--json'], ada);
    expect(listed.json()).toMatchObject({ intentId: adaIntent, agentStatus: 'external', questions: [{ id: 'stage', question: 'Which stage are you raising at?', scope: 'intent' }] });
    expect((await cli(['questions', 'list', adaIntent], ada)).stdout).toContain('Which stage are you raising at?');
    const answered = await cli(['questions', 'answer', adaIntent, 'stage', 'Seed', '--json'], ada);
    expect(answered.code).toBe(0);
    expect((await cli(['questions', 'list', adaIntent, '--json'], ada)).json().questions).toEqual([]);
  });

  it('docs: the topics, one topic, and an unknown one with the topics in the error', async () => {
    const all = await cli(['docs', '--json'], ada);
    expect(all.json().topics).toEqual(expect.arrayContaining(['negotiations', 'workflows']));
    const one = await cli(['docs', 'negotiations'], ada);
    expect(one.code).toBe(0);
    expect(one.stdout.length).toBeGreaterThan(50);
    const unknown = await cli(['docs', 'nope'], ada);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^intro: 404 .*topics: .*negotiations/);
  });

  it('events: replays with --after, resumes where the profile left off, human lines or JSON frames', async () => {
    const first = await cli(['events', '--after', '0', '--count', '2', '--json'], ada);
    expect(first.code).toBe(0);
    const frames = first.lines();
    expect(frames).toHaveLength(2);
    expect(Number(frames[1].eventId)).toBeGreaterThan(Number(frames[0].eventId));
    const next = await cli(['events', '--resume', '--count', '1', '--json'], ada);
    expect(Number(next.lines()[0].eventId)).toBe(Number(frames[1].eventId) + 1);

    const human = await cli(['events', '--after', '0', '--count', '1', '--type', 'intent.created'], ada);
    expect(human.stdout).toMatch(/^#\d+ \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ intent\.created .*\(intentId=[0-9a-f-]{36}\)\n$/);
    expect((await cli(['events', '--after', '1', '--resume'], ada)).code).toBe(2);

    // Live: a frame written while tailing arrives.
    const tail = startCli(['events', '--json'], ada);
    await tail.waitFor('stderr', /connected at/);
    const live = (await cli(['intent', 'new', '--json', 'Looking for a mixing engineer for six shoegaze songs, remote is fine.'], ada)).json().intentId;
    await tail.waitFor('stdout', new RegExp(`"intentId":"${live}"`));
    await tail.stop();
  });

  it('agent run stops (exit 1) once its agent is no longer the selected negotiator', async () => {
    const env = machine();
    const me = (await loginByEmail(env, ADA)).user.id;
    const bridge = startCli(['agent', 'run', '--name', 'fenced bot', '--rescan', '1', '--', process.execPath, join(__dirname, '..', 'examples', 'negotiator.js')], env);
    await bridge.waitFor('stderr', /Negotiating as agent "fenced bot"/);
    // Another agent takes the seat; the bridge's next turn (an opportunity awaiting Ada) is fenced.
    await createExternalAgent(app, me);
    const fresh = (await cli(['intent', 'new', '--json', '--network', networkId, 'Looking for a fintech lawyer in Warsaw for a seed round, fixed fee.'], ben)).json().intentId;
    await cli(['opportunities', 'open', adaIntent, fresh, '--network', networkId], env);
    expect(await bridge.exited).toBe(1);
    expect(bridge.stderr()).toMatch(/intro: .*(no longer|not) the selected negotiator/);
  }, 60_000);

  it('agent list, and agent run reporting a program that answers no valid turn (nothing submitted)', async () => {
    const env = machine();
    await loginByEmail(env, ADA);
    const listed = await cli(['agent', 'list', '--json'], env);
    expect(listed.json().agents.length).toBeGreaterThan(0);

    // An opportunity awaiting Ada's turn.
    const o = (await cli(['opportunities', 'open', adaIntent, benIntent, '--json'], env)).json();
    const bad = join(env.configDir, 'bad-agent.js');
    writeFileSync(bad, 'process.stdin.resume(); process.stdin.on("end", () => console.log(JSON.stringify({ action: "haggle" })));');
    const fresh = (await cli(['intent', 'new', '--json', '--network', networkId, 'Looking for a CFO for a fintech in Warsaw, part-time, equity.'], ben)).json().intentId;
    const opp = (await cli(['opportunities', 'open', adaIntent, fresh, '--network', networkId, '--json'], env)).json().opportunities[0].opportunityId;
    expect(o.opportunities.length).toBe(1);
    // The built bin, as a process: SIGTERM stops the bridge cleanly (exit 0).
    const bridge = startProcess(['agent', 'run', '--name', 'bad bot', '--json', '--', process.execPath, bad], env);
    await bridge.waitFor('stdout', /"type":"ready"/);
    await bridge.waitFor('stdout', new RegExp(`"type":"agent_error","opportunityId":"${opp}","error":"the agent's action must be one of`));
    expect(await bridge.stop()).toBe(0);
    const n = (await cli(['negotiation', 'show', opp, '--json'], env)).json().negotiation;
    expect(n.turnCount).toBe(0);
    const agents = (await cli(['agent', 'list', '--json'], env)).json().agents;
    expect(agents.find((a: { name: string }) => a.name === 'bad bot')).toMatchObject({ type: 'external', handleNegotiations: true });
  });
  it('agent run: two bridges of one agent race for a turn; one lands, the other is refused and carries on', async () => {
    const env = machine();
    await loginByEmail(env, ADA);
    const slow = join(env.configDir, 'slow-agent.js');
    // Slow (2 s, so both bridges hold the turn at once) only on the race's negotiation: Ada's
    // earlier tests left other negotiations awaiting her seat, which the bridges take first, and
    // 2 s each of those was most of this test's time. They get the same answers, at once.
    writeFileSync(
      slow,
      `let s = ''; process.stdin.on('data', (c) => (s += c)); process.stdin.on('end', () => {
        const n = JSON.parse(s).negotiation;
        const raced = /product designer/.test(n.counterparty?.statement ?? '');
        setTimeout(() => {
          const action = n.protocol.availableActions.includes('propose') ? 'propose' : 'decline';
          console.log(JSON.stringify({ action, message: 'A slow ' + action }));
        }, raced ? 2000 : 0);
      });`,
    );
    const args = ['agent', 'run', '--name', 'twin bot', '--rescan', '1', '--json', '--', process.execPath, slow];
    const first = startCli(args, env);
    await first.waitFor('stdout', /"type":"ready"/);
    const second = startCli(args, env);
    await second.waitFor('stdout', /"type":"ready"/);
    const fresh = (await cli(['intent', 'new', '--json', '--network', networkId, 'Looking for a product designer for a fintech app in Warsaw, three months, remote.'], ben)).json().intentId;
    const opp = (await cli(['opportunities', 'open', adaIntent, fresh, '--network', networkId, '--json'], env)).json().opportunities[0].opportunityId;
    const events = () => [...first.stdout().split('\n'), ...second.stdout().split('\n')].filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.opportunityId === opp);
    const settled = async () => {
      for (let i = 0; i < 200; i++) {
        const seen = events();
        if (seen.some((e) => e.type === 'turn') && seen.some((e) => e.type === 'refused')) return seen;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no turn and refusal: ${JSON.stringify(events())}`);
    };
    const seen = await settled();
    expect(seen.filter((e) => e.type === 'turn')).toEqual([expect.objectContaining({ turnIndex: 0, action: 'propose', message: 'A slow propose' })]);
    expect(seen.filter((e) => e.type === 'refused')).toEqual([expect.objectContaining({ status: expect.any(Number), error: expect.stringMatching(/It is not your turn|The other seat moved first/) })]);
    expect((await cli(['negotiation', 'show', opp, '--json'], env)).json().negotiation.turnCount).toBe(1);
    // Both bridges are still running, and stop cleanly.
    expect(first.exitCode()).toBeNull();
    expect(second.exitCode()).toBeNull();
    expect(await Promise.all([first.stop(), second.stop()])).toEqual([0, 0]);
  }, 90_000);
  it('agent run with an API key issued to the selected agent negotiates as that agent', async () => {
    const env = machine();
    await loginByEmail(env, ADA);
    // Select an agent with the session (a first bridge run creates it), then issue it a key.
    const setup = startCli(['agent', 'run', '--name', 'key bot', '--json', '--', process.execPath, join(__dirname, '..', 'examples', 'negotiator.js')], env);
    const [, agentId] = await setup.waitFor('stdout', /"type":"ready","agentId":"([0-9a-f-]{36})"/);
    expect(await setup.stop()).toBe(0);
    const { key } = (await cli(['keys', 'create', 'key bot key', '--agent', agentId, '--json'], env)).json();

    const keyed = machine();
    expect((await cli(['login', '--api-key', key], keyed)).code).toBe(0);
    const bridge = startCli(['agent', 'run', '--json', '--', process.execPath, join(__dirname, '..', 'examples', 'negotiator.js')], keyed);
    await bridge.waitFor('stdout', new RegExp(`"type":"ready","agentId":"${agentId}","agentName":"key bot"`));
    const fresh = (await cli(['intent', 'new', '--json', '--network', networkId, 'Looking for a growth marketer for a fintech app in Warsaw, part-time.'], ben)).json().intentId;
    const opp = (await cli(['opportunities', 'open', adaIntent, fresh, '--network', networkId, '--json'], env)).json().opportunities[0].opportunityId;
    await bridge.waitFor('stdout', new RegExp(`"type":"turn","opportunityId":"${opp}","turnIndex":0,"action":"propose"`));
    expect(await bridge.stop()).toBe(0);

    // A key of no agent cannot select one: one line, exit 1.
    const plain = (await cli(['keys', 'create', 'plain', '--json'], env)).json().key;
    const other = machine();
    await cli(['login', '--api-key', plain], other);
    const refused = await cli(['agent', 'run', '--agent', '00000000-0000-4000-8000-000000000000', '--', 'true'], other);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^intro: An API key cannot select a negotiator/);
  }, 90_000);
});
