import { extractFacets } from '../src/domain/matching/facets.rules';
import { tokenize } from '../src/domain/matching/text.rules';
import { readIntent } from '../src/domain/reading/intent-reader';
import { loadDevSets } from '../test/helpers/dev-set';
import { median, type Benchmark } from './harness';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * Issue 12 ("Speed and scale stay"): how many intents per second the indexer can featurize
 * (extractFacets: the general reading, places, constraints and amounts, plus the card facets),
 * beside the general reader alone and the tokenizer alone (the floor any reading pays), in the
 * same process and rounds. Texts: both development sets' intents, each made unique per pass
 * (so no cache answers), BENCH_FEATURIZE_PASSES passes per round. Memory: heap and RSS before
 * and after featurizing 20,000 unique texts, after a forced collection when node runs with
 * --expose-gc.
 */
export const benchmark: Benchmark = {
  name: 'featurize',
  description: 'intents featurized per second (extractFacets) beside the reader alone and the tokenizer alone',
  async run() {
    const texts = loadDevSets().flatMap((s) => s.data.intents.map((i) => i.text));
    const passes = Number(process.env.BENCH_FEATURIZE_PASSES ?? 4);
    const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
    const targets: Array<[string, (t: string) => unknown]> = [
      ['tokenize (floor)', (t) => tokenize(t)],
      ['readIntent (general reader)', (t) => readIntent(t)],
      ['extractFacets (what the indexer runs)', (t) => extractFacets(t)],
    ];
    for (const t of texts) for (const [, f] of targets) f(t);
    const rates = new Map<string, number[]>(targets.map(([n]) => [n, []]));
    let salt = 0;
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < targets.length; k++) {
        const [name, f] = targets[(k + r) % targets.length];
        const t0 = process.hrtime.bigint();
        let n = 0;
        for (let p = 0; p < passes; p++) {
          salt += 1;
          for (const t of texts) {
            f(`${t} ${salt}`);
            n += 1;
          }
        }
        rates.get(name)!.push(n / (Number(process.hrtime.bigint() - t0) / 1e9));
      }
    }
    process.stdout.write(`${texts.length} texts × ${passes} passes per round, ${rounds} rounds (median, min–max intents/s)\n`);
    for (const [name, xs] of rates) process.stdout.write(`  ${name.padEnd(40)} ${fmt(median(xs))}/s  (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})\n`);

    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage();
    for (let i = 0; i < 20_000; i++) extractFacets(`${texts[i % texts.length]} ${i}-${salt}`);
    gc?.();
    const after = process.memoryUsage();
    const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
    process.stdout.write(`  memory over 20,000 unique texts${gc ? '' : ' (no --expose-gc: without a forced collection)'}: heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB, RSS ${mb(before.rss)} → ${mb(after.rss)} MB\n`);
  },
};
