import { readFileSync } from 'node:fs';

const projects = require('../setup/projects') as {
  classify(): { unit: string[]; integration: string[] };
  shardFiles(project: string): string[];
  shardsOf(project: string): { shards: string[][]; alone: string[]; weights: number[] };
  weights(files: string[]): Map<string, number>;
};

/**
 * The shards of `npm test` (test/setup/shard.ts, jest.config.js): every test file of a project
 * runs exactly once, in one shard or alone, and a file that changes the module registry or the
 * timers runs alone (in a shard the change would reach the files after it).
 */
describe('test shards', () => {
  for (const project of ['unit', 'integration'] as const) {
    it(`${project}: every file in exactly one shard or alone, and the shards about even`, () => {
      const files = projects.classify()[project];
      const { shards, alone } = projects.shardsOf(project);
      expect(shards).toHaveLength(projects.shardFiles(project).length);
      const placed = [...shards.flat(), ...alone];
      expect([...placed].sort()).toEqual([...files].sort());
      expect(new Set(placed).size).toBe(placed.length);
      // Dealt heaviest first to the lightest (by recorded seconds, else size): no shard exceeds
      // another by more than the heaviest file.
      const weight = projects.weights(shards.flat());
      const totals = shards.map((s) => s.reduce((n, f) => n + weight.get(f)!, 0));
      const heaviest = Math.max(...shards.flat().map((f) => weight.get(f)!));
      expect(Math.max(...totals) - Math.min(...totals)).toBeLessThanOrEqual(heaviest);
    });
  }

  it('starts the heaviest first: the shards by the seconds dealt to them, then what runs alone, lightest last', () => {
    const HeaviestFirst = require('../setup/sequencer') as (new (options: object) => { sort(tests: Array<{ path: string }>): Array<{ path: string }> }) & {
      expectedSeconds(): Map<string, number>;
    };
    const expected = HeaviestFirst.expectedSeconds();
    // Every shard counts what was dealt to it.
    for (const project of ['unit', 'integration'] as const) {
      const { weights } = projects.shardsOf(project);
      projects.shardFiles(project).forEach((f, i) => expect(expected.get(f)).toBe(weights[i]));
    }
    // Handed over in the opposite order: lightest first.
    const given = [...expected.keys()].sort((a, b) => expected.get(a)! - expected.get(b)!).map((path) => ({ path }));
    const sorted = new HeaviestFirst({}).sort(given);
    const order = sorted.map((t) => expected.get(t.path)!);
    expect(order).toHaveLength(expected.size);
    for (let i = 1; i < order.length; i++) expect(order[i - 1]).toBeGreaterThanOrEqual(order[i]!);
    // The integration shards (the longest work of a run) are not left to the end.
    expect(projects.shardFiles('integration')).toContain(sorted[0]!.path);
  });

  it('runs a file alone when it mocks modules or fakes timers', () => {
    const { shards, alone } = projects.shardsOf('integration');
    const mocking = [...shards.flat(), ...alone].filter((f) => /\bjest\.(mock|useFakeTimers)\(/.test(readFileSync(f, 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    for (const f of mocking) expect(alone).toContain(f);
    for (const f of alone) expect(shards.flat()).not.toContain(f);
  });
});
