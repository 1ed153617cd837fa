import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * How people get `intro`: `npm install -g ./packages/cli` from the repository (here into a
 * temporary prefix rather than the machine's), and `npx intro` in it. Both run the built CLI
 * (`npm run cli:build`, which `npm test` runs first).
 */
const ROOT = join(__dirname, '..', '..', '..');
const PKG = join(ROOT, 'packages', 'cli');
const run = (file: string, args: string[], opts: { cwd?: string; path?: string } = {}) =>
  execFileSync(file, args, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, PATH: `${opts.path ? `${opts.path}:` : ''}${process.env.PATH}` },
    encoding: 'utf8',
  });

let prefix: string;
beforeAll(() => {
  prefix = mkdtempSync(join(tmpdir(), 'intro-global-'));
});
afterAll(() => {
  rmSync(prefix, { recursive: true, force: true });
});

it('npm install -g from the repository puts intro on the PATH', () => {
  // --offline: everything it needs is in the repository (the client is a workspace package).
  run('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', PKG]);
  const bin = join(prefix, 'bin');
  expect(realpathSync(join(bin, 'intro'))).toBe(realpathSync(join(PKG, 'bin', 'intro.js')));
  // By its name, from another directory.
  expect(run('intro', ['--version'], { cwd: prefix, path: bin }).trim()).toBe('0.1.0');
  expect(run('intro', ['docs', '--help'], { cwd: prefix, path: bin })).toMatch(/^Usage: intro docs \[options\] \[topic\][\s\S]*\$ intro docs negotiations/);
});

it('npx intro runs it in the repository, and from elsewhere with --prefix', () => {
  expect(run('npx', ['--no', '--', 'intro', '--version']).trim()).toBe('0.1.0');
  expect(run('npx', ['--no', '--offline', '--prefix', ROOT, '--', 'intro', '--version'], { cwd: prefix }).trim()).toBe('0.1.0');
  expect(run('npx', ['--no', '--', 'intro', 'completion', 'bash'])).toMatch(/complete -F _intro_complete intro/);
});
