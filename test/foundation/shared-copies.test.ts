import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SHARED = [join(ROOT, '..', 'shared'), join(ROOT, '..', '..', 'shared')].find(existsSync);

/**
 * The repository keeps copies of shared files so a clone anywhere runs every test; beside the
 * shared originals (CI, a checkout in the workplace) each copy must equal its original.
 */
describe('copies of the shared files', () => {
  const copies: Array<[string, string]> = [
    ['spec/routes.tsv', 'test/fixtures/routes.tsv'],
    ['eval/matching-dev.json', 'test/fixtures/matching-dev.json'],
    ['eval/matching-dev-2.json', 'test/fixtures/matching-dev-2.json'],
  ];
  it.each(copies)('%s equals its copy %s', (original, copy) => {
    expect(existsSync(join(ROOT, copy))).toBe(true);
    if (!SHARED) return;
    expect(readFileSync(join(ROOT, copy), 'utf8')).toBe(readFileSync(join(SHARED, original), 'utf8'));
  });
});
