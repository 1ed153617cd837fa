import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'pretest.mjs');

/**
 * scripts/pretest.mjs runs its two build chains through `npm run`: here `npm` is a stand-in on
 * PATH that records each script it is asked for and fails the one named in FAIL.
 */
describe('pretest: the builds before npm test', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'im-pretest-'));
    writeFileSync(
      join(dir, 'npm'),
      `#!/bin/sh\necho "$3" >> "${join(dir, 'calls.txt')}"\n[ "$3" = "$FAIL" ] && { echo "$3 broke" >&2; exit 2; }\nexit 0\n`,
    );
    chmodSync(join(dir, 'npm'), 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function pretest(fail = '') {
    const run = spawnSync(process.execPath, [SCRIPT], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, FAIL: fail }, encoding: 'utf8' });
    const calls = readFileSync(join(dir, 'calls.txt'), 'utf8').trim().split('\n');
    return { status: run.status, stderr: run.stderr, calls };
  }

  it('builds the client before the CLI, and the service and web app beside them', () => {
    const { status, calls } = pretest();
    expect(status).toBe(0);
    expect([...calls].sort()).toEqual(['build', 'cli:build', 'client:build']);
    expect(calls.indexOf('client:build')).toBeLessThan(calls.indexOf('cli:build'));
  });

  it('a failed client build stops its chain, lets the other finish, and fails with its code', () => {
    const { status, stderr, calls } = pretest('client:build');
    expect(status).toBe(2);
    expect(calls).not.toContain('cli:build');
    expect(calls).toContain('build');
    expect(stderr).toContain('client:build broke');
    expect(stderr).toContain('pretest: npm run client:build failed (exit 2)');
  });

  it('a failed service or web build fails the whole', () => {
    const { status, calls } = pretest('build');
    expect(status).toBe(2);
    expect([...calls].sort()).toEqual(['build', 'cli:build', 'client:build']);
  });
});
