import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../../test/helpers/app';
import { createUser } from '../../../test/helpers/factories';
import { cli, freshConfigDir, startCli, startOnTerminal, stopAll, until, type CliEnv } from './cli-helpers';

/**
 * `intro` on a terminal (a pseudo-terminal, as a person's shell gives it) rather than a pipe:
 * colour, the spinner of a long wait, the browser of the device flow, and the prompts of
 * `intent new`. commands.test.ts checks the same commands from pipes, where none of these show.
 */
let app: TestApp;
const ADA = 'ada.tty@example.com';

beforeAll(async () => {
  // A device login polls every second rather than five: the logins here wait on it.
  app = await startTestApp({ EARLY_ACCESS: ADA, DEVICE_POLL_INTERVAL_S: '1' });
});
afterAll(async () => {
  await stopAll();
  await app.close();
});
jest.setTimeout(120_000);

const machine = (extra: Record<string, string> = {}): CliEnv => ({ configDir: freshConfigDir(), server: app.url, extra });
const SGR = /\u001b\[[0-9;]*m/g;
const plain = (text: string) => text.replace(SGR, '');
const ENTER = '\r';
const DOWN = '\u001b[B';
const SPACE = ' ';

async function approve(userCode: string, name: string): Promise<void> {
  const approver = await createUser(app, { name });
  await app.http.post('/api/auth/device/approve').set(approver.auth).send({ userCode }).expect(200);
}

async function signIn(env: CliEnv, email: string): Promise<void> {
  const p = startCli(['login', '--email', email], env);
  await p.waitFor('stderr', /Code from the email:/);
  const mail = [...app.services.mailer.outbox].reverse().find((m) => m.to === email)!;
  p.write(`${/\b(\d{6})\b/.exec(mail.text)![1]}\n`);
  expect(await p.exited).toBe(0);
}

it('login on a terminal: a spinner turns while it waits for approval, is cleared with the cursor shown again, and the result is in colour', async () => {
  const env = machine();
  const t = startOnTerminal(['login', '--no-browser'], env);
  const [, userCode] = await t.waitFor('stdout', /confirm the code (?:\u001b\[\d+m)?([A-Z]{4}-[A-Z]{4})/);
  // Two of its frames: it turns, on the terminal, with the waiting text.
  await t.waitFor('stdout', /⠋(?:\u001b\[\d+m)? Waiting for approval…/);
  await t.waitFor('stdout', /⠙(?:\u001b\[\d+m)? Waiting for approval…/);
  await approve(userCode, 'Terminal Owner');
  expect(await t.exited).toBe(0);

  const out = t.stdout();
  expect(out).toContain('\u001b[32mSigned in\u001b[39m as Terminal Owner');
  // The spinner hid the cursor; stopping it shows it again, and it draws nothing after the result.
  expect(out.lastIndexOf('\u001b[?25l')).toBeGreaterThan(-1);
  expect(out.lastIndexOf('\u001b[?25h')).toBeGreaterThan(out.lastIndexOf('\u001b[?25l'));
  expect(out.slice(out.indexOf('Signed in'))).not.toMatch(/Waiting for approval/);
});

it('colour on a terminal only: a table and fields are coloured there, not with NO_COLOR, nor through a pipe', async () => {
  const env = machine();
  await signIn(env, ADA);
  const tty = startOnTerminal(['whoami'], env);
  expect(await tty.exited).toBe(0);
  expect(tty.stdout()).toMatch(/\u001b\[2memail:\s*\u001b\[22m\s+ada\.tty@example\.com/);

  const noColour = startOnTerminal(['whoami'], { ...env, extra: { NO_COLOR: '1' } });
  expect(await noColour.exited).toBe(0);
  expect(noColour.stdout()).toMatch(/email:\s+ada\.tty@example\.com/);
  expect(noColour.stdout()).not.toMatch(SGR);

  // A pipe without CI in the environment either.
  const piped = await cli(['whoami'], { ...env, extra: { CI: '' } });
  expect(piped.stdout).toMatch(/email:\s+ada\.tty@example\.com/);
  expect(piped.stdout).not.toMatch(SGR);
});

it('login opens the browser at the approval address on a terminal with a display, and not from a pipe', async () => {
  /** A display, a browser that writes down what it was asked to open, and no desktop's own handler. */
  const desktop = () => {
    const dir = freshConfigDir();
    const opened = join(dir, 'opened.txt');
    writeFileSync(join(dir, 'browser'), `#!/bin/sh\necho "$1" >> '${opened}'\n`);
    // xdg-open asks xdg-mime for the desktop's handler first; here there is none, so $BROWSER opens it.
    writeFileSync(join(dir, 'xdg-mime'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(dir, 'browser'), 0o755);
    chmodSync(join(dir, 'xdg-mime'), 0o755);
    return { opened, extra: { DISPLAY: ':99', BROWSER: join(dir, 'browser'), PATH: `${dir}:${process.env.PATH}` } };
  };

  const here = desktop();
  const t = startOnTerminal(['login'], machine(here.extra));
  const [, userCode] = await t.waitFor('stdout', /confirm the code (?:\u001b\[\d+m)?([A-Z]{4}-[A-Z]{4})/);
  await t.waitFor('stdout', /Opened your browser\./);
  const url = await until(async () => existsSync(here.opened) && readFileSync(here.opened, 'utf8').trim(), 'the browser to be opened');
  expect(url).toBe(`http://localhost:3001/device?code=${userCode}`);
  await approve(userCode, 'Browser Owner');
  expect(await t.exited).toBe(0);

  const there = desktop();
  const p = startCli(['login'], machine(there.extra));
  const [, pipedCode] = await p.waitFor('stderr', /confirm the code ([A-Z]{4}-[A-Z]{4})/);
  await approve(pipedCode, 'Pipe Owner');
  expect(await p.exited).toBe(0);
  expect(p.stderr()).not.toMatch(/browser/i);
  expect(existsSync(there.opened)).toBe(false);
});

describe('intent new on a terminal', () => {
  let env: CliEnv;
  let networkId: string;
  beforeAll(async () => {
    env = machine();
    await signIn(env, ADA);
    networkId = (await cli(['networks', 'create', 'Terminal club', '--json'], env)).json().network.id;
  });

  it('asks a single-choice question as a list to pick from and a text question as an input; --json output stays one document', async () => {
    const out = join(env.configDir, 'intent.json');
    const t = startOnTerminal(['intent', 'new', '--json', '--network', networkId, 'Looking for a room, in person'], env, out);
    await t.waitFor('stdout', /What exactly are you looking for\?[\s\S]*A place to live/);
    // "A place to live" is the seventh option.
    t.write(DOWN.repeat(6));
    await t.waitFor('stdout', /❯ A place to live/);
    t.write(ENTER);
    await t.waitFor('stdout', /Where should this happen\?/);
    t.write(`East Austin${ENTER}`);
    expect(await t.exited).toBe(0);
    // The prompts were on the terminal; the redirected stdout holds only the JSON.
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      intentId: expect.any(String),
      networkIds: [networkId],
      payload: 'Looking for a room, in person. Looking for: A place to live. Location: East Austin.',
      questionsAsked: ['What exactly are you looking for?', 'Where should this happen?'],
    });
  });

  it('asks a multiple-choice question as a checkbox list, with room for an answer of one’s own', async () => {
    const out = join(env.configDir, 'meet.json');
    const t = startOnTerminal(['intent', 'new', '--json', '--network', networkId, 'I want to meet people for coffee, in person'], env, out);
    await t.waitFor('stdout', /Who would you like to meet\?[\s\S]*Founders/);
    // Founders and the third option, Engineers or developers.
    t.write(SPACE);
    t.write(DOWN.repeat(2));
    t.write(SPACE);
    await t.waitFor('stdout', /◉(?:\u001b\[\d+m)* Engineers or developers/);
    t.write(ENTER);
    await t.waitFor('stdout', /Anything else\? \(optional\)/);
    t.write(`Baristas${ENTER}`);
    await t.waitFor('stdout', /Where should this happen\?/);
    t.write(`Berlin, Kreuzberg${ENTER}`);
    expect(await t.exited).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      payload: 'I want to meet people for coffee, in person. Would like to meet: Founders, Engineers or developers, Baristas. Location: Berlin, Kreuzberg.',
      questionsAsked: ['Who would you like to meet?', 'Where should this happen?'],
    });
    expect(plain(t.stdout())).not.toContain('"intentId"');
  });
});
