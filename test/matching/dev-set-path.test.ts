import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_SET_COPY, devSetCandidates, devSetPath, SHARED_DEV_SET } from '../helpers/dev-set';

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

  it('keeps the copy in the repository identical to the shared original, where that is present', () => {
    const shared = SHARED_DEV_SET.find((p) => existsSync(p));
    if (shared) expect(readFileSync(DEV_SET_COPY, 'utf8')).toBe(readFileSync(shared, 'utf8'));
    expect(devSetCandidates().at(-1)).toBe(DEV_SET_COPY);
    expect(existsSync(DEV_SET_COPY)).toBe(true);
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
