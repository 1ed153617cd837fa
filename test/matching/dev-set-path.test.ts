import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devSetCandidates, devSetPath } from '../helpers/dev-set';

describe('locating the development set', () => {
  const saved = process.env.MATCHING_DEV_SET;
  afterEach(() => {
    if (saved === undefined) delete process.env.MATCHING_DEV_SET;
    else process.env.MATCHING_DEV_SET = saved;
  });

  it('fails with the places it looked in when the file is missing', () => {
    expect(() => devSetPath(['/nonexistent/a.json', '/nonexistent/b.json'])).toThrow(
      'matching-dev.json not found; looked in /nonexistent/a.json, /nonexistent/b.json (set MATCHING_DEV_SET)',
    );
  });

  it('prefers MATCHING_DEV_SET', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-set-'));
    try {
      const copy = join(dir, 'copy.json');
      copyFileSync(devSetPath(), copy);
      process.env.MATCHING_DEV_SET = copy;
      expect(devSetCandidates()[0]).toBe(copy);
      expect(devSetPath()).toBe(copy);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
