/**
 * Offline evaluation of the local matcher on a dataset in the scorer's format
 * (../shared/eval/matching-dev.json): the same candidate rule as the scorer's offline
 * baselines (intents sharing a network with the query intent, minus the query owner's), the
 * facet extraction and ranker discover uses, and the scorer's metrics.
 *
 *   node -r @swc-node/register scripts/eval-offline.ts [--data FILE] [--no-threshold] [--verbose] [--calibration] [--lookalikes]
 *
 * Prints all queries, then the two halves (even and odd query positions) separately, so a
 * change tuned on one half can be checked on the other.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { extractFacets, type Facets } from '../src/domain/matching/facets.rules';
import { MIN_SCORE, scorePair } from '../src/domain/matching/ranking.rules';

interface Dataset {
  intents: Array<{ key: string; user: string; networks: string[]; text: string }>;
  queries: Array<{ intent: string; relevant: Array<{ intent: string; grade: number }>; hardNegatives?: string[]; otherNetwork?: string[] }>;
}

interface QueryResult {
  intent: string;
  ranked: string[];
  ndcg: number;
  recall: number;
  rr: number;
  hardneg3: number | null;
}

function dcg(gains: number[]): number {
  return gains.reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
}

/** The scorer's per-query metrics (score-matching.mjs, scoreQuery). */
export function scoreQuery(q: Dataset['queries'][number], ranked: string[], k = 10): Omit<QueryResult, 'intent' | 'ranked'> {
  const grade = new Map(q.relevant.map((r) => [r.intent, r.grade]));
  const hard = new Set(q.hardNegatives ?? []);
  const top = ranked.slice(0, k);
  const gains = top.map((key) => grade.get(key) ?? 0);
  const ideal = [...grade.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = dcg(ideal);
  const ndcg = idcg > 0 ? dcg(gains) / idcg : 0;
  const g2 = [...grade.entries()].filter(([, g]) => g === 2).map(([key]) => key);
  const recall = g2.length ? g2.filter((key) => top.includes(key)).length / g2.length : 0;
  const first = top.findIndex((key) => grade.get(key) === 2);
  const rr = first >= 0 ? 1 / (first + 1) : 0;
  const top3 = top.slice(0, 3);
  const hardneg3 = top3.length ? top3.filter((key) => hard.has(key)).length / top3.length : null;
  return { ndcg, recall, rr, hardneg3 };
}

function aggregate(per: QueryResult[]) {
  const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const hn = per.map((p) => p.hardneg3).filter((x): x is number => x !== null);
  const r4 = (x: number) => Math.round(x * 10000) / 10000;
  return {
    queries: per.length,
    'ndcg@10': r4(avg(per.map((p) => p.ndcg))),
    'recall@10': r4(avg(per.map((p) => p.recall))),
    mrr: r4(avg(per.map((p) => p.rr))),
    'hardneg@3': r4(avg(hn)),
    queriesWithResults: hn.length,
  };
}

/** MATCHING_DEV_SET, else the shared folder beside the repository (as the tests find it). */
function defaultData(): string {
  const candidates = [process.env.MATCHING_DEV_SET, ...['../shared/eval/matching-dev.json', '../../shared/eval/matching-dev.json', 'test/fixtures/matching-dev.json'].map((p) => resolve(__dirname, '..', p))].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`matching-dev.json not found; looked in ${candidates.join(', ')} (set MATCHING_DEV_SET or pass --data FILE)`);
  return found;
}

export function evaluate(data: Dataset, opts: { threshold: boolean; limit?: number }) {
  const facets = new Map<string, Facets>(data.intents.map((i) => [i.key, extractFacets(i.text)]));
  const byKey = new Map(data.intents.map((i) => [i.key, i]));
  const per: Array<QueryResult & { top: Array<{ key: string; score: number; reasons: string[] }> }> = [];
  let leakage = 0;
  for (const q of data.queries) {
    const qi = byKey.get(q.intent)!;
    const cands = data.intents.filter((c) => c.user !== qi.user && c.networks.some((n) => qi.networks.includes(n)));
    const scored = cands
      .map((c) => ({ key: c.key, ...scorePair(facets.get(qi.key)!, facets.get(c.key)!) }))
      .filter((s) => !opts.threshold || s.score >= MIN_SCORE)
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
      .slice(0, opts.limit ?? 10);
    const ranked = scored.map((s) => s.key);
    for (const key of ranked) {
      const c = byKey.get(key)!;
      if (c.user === qi.user || !c.networks.some((n) => qi.networks.includes(n))) leakage += 1;
    }
    per.push({ intent: q.intent, ranked, ...scoreQuery(q, ranked), top: scored.map((s) => ({ key: s.key, score: Math.round(s.score * 1000) / 1000, reasons: s.reasons })) });
  }
  return {
    all: { ...aggregate(per), leakage },
    evenHalf: aggregate(per.filter((_, i) => i % 2 === 0)),
    oddHalf: aggregate(per.filter((_, i) => i % 2 === 1)),
    per,
  };
}

/**
 * How often a pair in each score band is a judged introduction: the check that a score means
 * the same across queries (every query's candidates pooled, unjudged pairs counted as 0).
 */
export function calibration(data: Dataset) {
  const facets = new Map<string, Facets>(data.intents.map((i) => [i.key, extractFacets(i.text)]));
  const byKey = new Map(data.intents.map((i) => [i.key, i]));
  const bands = [0, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.01];
  const rows = bands.slice(0, -1).map((lo, k) => ({ band: `${lo.toFixed(2)}–${Math.min(1, bands[k + 1]).toFixed(2)}`, pairs: 0, grade2: 0, grade1: 0, hardNegative: 0 }));
  for (const q of data.queries) {
    const qi = byKey.get(q.intent)!;
    const grade = new Map(q.relevant.map((r) => [r.intent, r.grade]));
    const hard = new Set(q.hardNegatives ?? []);
    for (const c of data.intents) {
      if (c.user === qi.user || !c.networks.some((n) => qi.networks.includes(n))) continue;
      const s = scorePair(facets.get(qi.key)!, facets.get(c.key)!).score;
      const row = rows[bands.findIndex((b, k) => s >= b && s < bands[k + 1])];
      row.pairs += 1;
      if (grade.get(c.key) === 2) row.grade2 += 1;
      if (grade.get(c.key) === 1) row.grade1 += 1;
      if (hard.has(c.key)) row.hardNegative += 1;
    }
  }
  return rows;
}

/**
 * Pairwise check of a look-alike set (test/matching/fixtures): for each query, the scores of its
 * real counterparts (grade 2) against its look-alikes (hardNegatives), and how many of each clear
 * the cut-off. Unlike the ranked metrics it sees scores, not only order.
 */
export function lookalikeReport(data: Dataset) {
  const text = new Map(data.intents.map((i) => [i.key, i.text]));
  const facets = new Map<string, Facets>(data.intents.map((i) => [i.key, extractFacets(i.text)]));
  const rows = data.queries.map((q) => {
    const score = (key: string) => Math.round(scorePair(facets.get(q.intent)!, facets.get(key)!).score * 1000) / 1000;
    const counterparts = q.relevant.filter((r) => r.grade === 2).map((r) => ({ key: r.intent, score: score(r.intent) }));
    const lookalikes = (q.hardNegatives ?? []).map((key) => ({ key, score: score(key) }));
    const outranks = Math.min(...counterparts.map((c) => c.score)) > Math.max(...lookalikes.map((l) => l.score));
    return { query: q.intent, text: text.get(q.intent)!, counterparts, lookalikes, outranks };
  });
  const all = <T>(f: (r: (typeof rows)[number]) => T[]) => rows.flatMap(f);
  return {
    queries: rows.length,
    counterpartOutranksLookalikes: rows.filter((r) => r.outranks).length,
    lookalikes: all((r) => r.lookalikes).length,
    lookalikesAtOrAboveCut: all((r) => r.lookalikes).filter((l) => l.score >= MIN_SCORE).length,
    counterparts: all((r) => r.counterparts).length,
    counterpartsAtOrAboveCut: all((r) => r.counterparts).filter((c) => c.score >= MIN_SCORE).length,
    rows,
  };
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--data');
  const file = at >= 0 ? args[at + 1] : defaultData();
  const data = JSON.parse(readFileSync(file, 'utf8')) as Dataset;
  if (args.includes('--lookalikes')) {
    const { rows, ...summary } = lookalikeReport(data);
    if (args.includes('--verbose')) {
      const line = (xs: Array<{ key: string; score: number }>) => xs.map((x) => `${x.key} ${x.score.toFixed(3)}`).join(', ');
      for (const r of rows) process.stdout.write(`${r.outranks ? ' ' : '!'} ${r.query}: counterparts ${line(r.counterparts)} | look-alikes ${line(r.lookalikes)}\n`);
    }
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return;
  }
  if (args.includes('--calibration')) {
    for (const r of calibration(data)) process.stdout.write(`${JSON.stringify(r)}\n`);
    return;
  }
  const result = evaluate(data, { threshold: !args.includes('--no-threshold') });
  if (args.includes('--verbose')) {
    const byQuery = new Map(data.queries.map((q) => [q.intent, q]));
    for (const p of result.per) {
      const q = byQuery.get(p.intent)!;
      const rel = new Map(q.relevant.map((r) => [r.intent, r.grade]));
      const hard = new Set(q.hardNegatives ?? []);
      const mark = (k: string) => (rel.has(k) ? `+${rel.get(k)}` : hard.has(k) ? 'HN' : '  ');
      process.stdout.write(`${p.intent}  ndcg=${p.ndcg.toFixed(2)} hn3=${p.hardneg3?.toFixed(2)}\n`);
      for (const t of p.top.slice(0, 5)) process.stdout.write(`   ${mark(t.key)} ${t.score.toFixed(3)} ${t.key} ${t.reasons.join(' ')}\n`);
    }
  }
  const { per: _per, ...summary } = result;
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  const a = result.all;
  process.stdout.write(`ndcg@10=${a['ndcg@10'].toFixed(4)} recall@10=${a['recall@10'].toFixed(4)} mrr=${a.mrr.toFixed(4)} hardneg@3=${a['hardneg@3'].toFixed(4)} leakage=${a.leakage}\n`);
}

if (require.main === module) main();
