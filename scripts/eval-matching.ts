/**
 * Offline evaluation of the local matcher over data sets in the scorer's format, network by
 * network, with leave-one-network-out parameter choice and the plain BM25 baseline beside it.
 *
 *   node -r @swc-node/register scripts/eval-matching.ts [--data FILE ...] [--verbose NETWORK] [--grid]
 *
 * The leave-one-network-out grid: reverse 0.5–1, topic 0.2–0.5, the unmet-need weight 0–0.6 and
 * the cut-offs (absolute 0–0.2, relative 0–0.6). Without --grid the shipped defaults, cut-off included.
 *
 * Candidates are those the scorer's offline baselines use: intents that share a network with
 * the query intent, minus the query owner's. Queries are grouped by the query intent's first
 * network. Without --data it reads both development sets beside the repository.
 */
import { devSetFiles } from './dev-set-files';
import { readFileSync } from 'node:fs';
import { DEFAULT_MIN_SCORE, rankCandidates, type RankOptions } from '../src/domain/matching/local-ranker';
import { readIntent, type IntentReading } from '../src/domain/reading/intent-reader';
import { idfFrom } from '../src/domain/matching/term-stats';
import { DEFAULT_PARAMS, type ScoreParams } from '../src/domain/matching/pair-score';

interface Intent { key: string; user: string; networks: string[]; text: string }
interface Query { intent: string; relevant: Array<{ intent: string; grade: number }>; hardNegatives?: string[] }
interface Dataset { name?: string; intents: Intent[]; queries: Query[] }

export interface Metrics { ndcg: number; recall: number; rr: number; hardneg3: number | null }

const dcg = (g: number[]) => g.reduce((s, x, i) => s + (2 ** x - 1) / Math.log2(i + 2), 0);

/** The scorer's per-query metrics (score-matching.mjs, scoreQuery). */
export function scoreQuery(q: Query, ranked: string[], k = 10): Metrics {
  const grade = new Map(q.relevant.map((r) => [r.intent, r.grade]));
  const hard = new Set(q.hardNegatives ?? []);
  const top = ranked.slice(0, k);
  const idcg = dcg([...grade.values()].sort((a, b) => b - a).slice(0, k));
  const ndcg = idcg > 0 ? dcg(top.map((x) => grade.get(x) ?? 0)) / idcg : 0;
  const g2 = [...grade.entries()].filter(([, g]) => g === 2).map(([x]) => x);
  const recall = g2.length ? g2.filter((x) => top.includes(x)).length / g2.length : 0;
  const first = top.findIndex((x) => grade.get(x) === 2);
  const top3 = top.slice(0, 3);
  return { ndcg, recall, rr: first >= 0 ? 1 / (first + 1) : 0, hardneg3: top3.length ? top3.filter((x) => hard.has(x)).length / top3.length : null };
}

export function mean(ms: Metrics[]) {
  const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const hn = ms.map((m) => m.hardneg3).filter((x): x is number => x !== null);
  return { ndcg: avg(ms.map((m) => m.ndcg)), recall: avg(ms.map((m) => m.recall)), mrr: avg(ms.map((m) => m.rr)), hardneg3: avg(hn), n: ms.length };
}

/** The scorer's BM25 baseline (score-matching.mjs, makeRanker 'lexical-bm25'). */
function bm25Ranker(intents: Intent[]) {
  const STOP = new Set(`a an the and or but if then else of to in on at by for with from as is are was were be been
being am i me my we our you your he she it its they them their this that these those there here what which who whom
whose when where why how all any both each few more most other some such no nor not only own same so than too very
can will just do does did doing have has had having would should could may might must shall also into about over
under again further once up down out off than s t don dont im ive id ill youre were theyre it's i'm i've let lets
per via anyone someone something anything let's hi hey`.split(/\s+/));
  const tok = (t: string) => t.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').split(/[^\p{L}\p{N}]+/u).filter((x) => x && !STOP.has(x));
  const docs = new Map(intents.map((i) => [i.key, tok(i.text)]));
  const df = new Map<string, number>();
  for (const d of docs.values()) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const N = docs.size;
  const avgdl = [...docs.values()].reduce((s, d) => s + d.length, 0) / N;
  const idf = (t: string) => Math.log(1 + (N - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
  return (q: Intent, cands: Intent[]) => {
    const qt = [...new Set(docs.get(q.key))];
    return cands
      .map((c) => {
        const d = docs.get(c.key)!;
        const tf = new Map<string, number>();
        for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
        let s = 0;
        for (const t of qt) {
          const f = tf.get(t) ?? 0;
          if (f) s += (idf(t) * (f * 2.2)) / (f + 1.2 * (0.25 + (0.75 * d.length) / avgdl));
        }
        return [c.key, s] as [string, number];
      })
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([k]) => k);
  };
}

export interface PreparedSet {
  name: string;
  data: Dataset;
  readings: Map<string, IntentReading>;
  byKey: Map<string, Intent>;
}

export function prepare(file: string): PreparedSet {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Dataset;
  return {
    name: data.name ?? file,
    data,
    readings: new Map(data.intents.map((i) => [i.key, readIntent(i.text)])),
    byKey: new Map(data.intents.map((i) => [i.key, i])),
  };
}

/** Per-query results of the local ranker on one set, keyed by network. */
export function runSet(set: PreparedSet, params: ScoreParams, opts: RankOptions, verbose?: string) {
  const idf = idfFrom(set.data.intents.map((i) => set.readings.get(i.key)!));
  const bm25 = bm25Ranker(set.data.intents);
  const out = new Map<string, { ours: Metrics[]; bm25: Metrics[] }>();
  for (const q of set.data.queries) {
    const qi = set.byKey.get(q.intent)!;
    const cands = set.data.intents.filter((c) => c.user !== qi.user && c.networks.some((n) => qi.networks.includes(n)));
    const poolIdf = process.env.IM_POOL_IDF ? idfFrom([q.intent, ...cands.map((c) => c.key)].map((k) => set.readings.get(k)!)) : idf;
    const ranked = rankCandidates(
      set.readings.get(q.intent)!,
      cands.map((c) => ({ id: c.key, reading: set.readings.get(c.key)! })),
      poolIdf,
      params,
      opts,
    );
    const net = qi.networks[0];
    const slot = out.get(net) ?? { ours: [], bm25: [] };
    slot.ours.push(scoreQuery(q, ranked.map((r) => r.id)));
    slot.bm25.push(scoreQuery(q, bm25(qi, cands).slice(0, 10)));
    out.set(net, slot);
    if (verbose && (verbose === net || verbose === 'all')) {
      const grade = new Map(q.relevant.map((r) => [r.intent, r.grade]));
      const hard = new Set(q.hardNegatives ?? []);
      console.log(`\n# ${q.intent}: ${qi.text.slice(0, 160).replace(/\n/g, ' ')}`);
      const qr = set.readings.get(q.intent)!;
      console.log(`  seek: ${Object.keys(qr.seek).join(' ')}\n  give: ${Object.keys(qr.give).join(' ')}`);
      for (const r of ranked.slice(0, 6)) {
        const mark = grade.get(r.id) ? `G${grade.get(r.id)}` : hard.has(r.id) ? 'HN' : '--';
        console.log(`  ${mark} ${r.score.toFixed(3)} ${r.id} need=${r.detail.need.toFixed(1)} rev=${r.detail.reverse.toFixed(1)} topic=${r.detail.topic.toFixed(1)} ${r.detail.reasons.join(',')}`);
      }
      for (const [k, g] of grade) if (!ranked.slice(0, 10).some((r) => r.id === k)) console.log(`  missed G${g} ${k}`);
    }
  }
  return out;
}

const fmt = (x: number) => x.toFixed(3);


function main() {
  const args = process.argv.slice(2);
  const files: string[] = [];
  let verbose: string | undefined;
  let grid = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--data') files.push(args[++i]);
    else if (args[i] === '--verbose') verbose = args[++i];
    else if (args[i] === '--grid') grid = true;
  }
  const sets = (files.length ? files : devSetFiles()).map(prepare);
  const opts: RankOptions = { limit: 10, minScore: DEFAULT_MIN_SCORE };
  if (grid) {
    // Leave one network out: the parameters are chosen on the other networks, then scored on it.
    const grids: Array<ScoreParams & { min: number; rel: number }> = [];
    for (const both of [0, 0.5, 1, 2]) for (const unmet of [0, 0.2, 0.4, 0.6]) for (const reverse of [0.5, 0.75, 1]) for (const topic of [0.2, 0.35, 0.5]) for (const min of [0, DEFAULT_MIN_SCORE, 0.1, 0.2]) for (const rel of [0, 0.3, 0.45, 0.6]) grids.push({ ...DEFAULT_PARAMS, reverse, topic, unmet, both, min, rel });
    const per = grids.map((p) => {
      const m = new Map<string, ReturnType<typeof mean>>();
      const b = new Map<string, ReturnType<typeof mean>>();
      for (const set of sets) for (const [net, r] of runSet(set, p, { ...opts, minScore: p.min, relative: p.rel })) { m.set(net, mean(r.ours)); b.set(net, mean(r.bm25)); }
      return { p, m, b };
    });
    const nets = [...per[0].m.keys()];
    const objective = (x: ReturnType<typeof mean>, b: ReturnType<typeof mean>) => x.ndcg - 0.5 * x.hardneg3 - 2 * Math.max(0, b.recall - x.recall);
    const rows = nets.map((net) => {
      let best = per[0];
      let bestV = -Infinity;
      for (const g of per) {
        const v = nets.filter((n) => n !== net).reduce((s, n) => s + objective(g.m.get(n)!, g.b.get(n)!), 0);
        if (v > bestV) { bestV = v; best = g; }
      }
      return { net, p: best.p, o: best.m.get(net)!, b: best.b.get(net)! };
    });
    for (const r of rows) console.log(`${r.net.padEnd(14)} ${fmt(r.o.ndcg)} ${fmt(r.o.recall)} ${fmt(r.o.mrr)} ${fmt(r.o.hardneg3)} | ${fmt(r.b.ndcg)} ${fmt(r.b.recall)} ${fmt(r.b.mrr)} ${fmt(r.b.hardneg3)}  rev=${r.p.reverse} topic=${r.p.topic} unmet=${r.p.unmet} both=${r.p.both} min=${r.p.min} rel=${r.p.rel}`);
    const avg = (f: (x: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0) / rows.length;
    console.log(`${'LOO MEAN'.padEnd(14)} ${fmt(avg((r) => r.o.ndcg))} ${fmt(avg((r) => r.o.recall))} ${fmt(avg((r) => r.o.mrr))} ${fmt(avg((r) => r.o.hardneg3))} | ${fmt(avg((r) => r.b.ndcg))} ${fmt(avg((r) => r.b.recall))} ${fmt(avg((r) => r.b.mrr))} ${fmt(avg((r) => r.b.hardneg3))}`);
    for (const g of per.filter((x) => x.p.rel === 0 && x.p.min === 0)) {
      if (g.p.unmet !== DEFAULT_PARAMS.unmet) continue;
      const xs = [...g.m.values()];
      console.log(`grid rev=${g.p.reverse} topic=${g.p.topic}: ndcg ${fmt(xs.reduce((s, x) => s + x.ndcg, 0) / xs.length)} hn3 ${fmt(xs.reduce((s, x) => s + x.hardneg3, 0) / xs.length)}`);
    }
  }
  if (!grid) {
    const rows: Array<[string, ReturnType<typeof mean>, ReturnType<typeof mean>]> = [];
    for (const set of sets) {
      for (const [net, r] of runSet(set, DEFAULT_PARAMS, opts, verbose)) rows.push([net, mean(r.ours), mean(r.bm25)]);
    }
    console.log('network        ours ndcg  rec   mrr   hn3 | bm25 ndcg  rec   mrr   hn3');
    for (const [net, o, b] of rows) console.log(`${net.padEnd(14)} ${fmt(o.ndcg)} ${fmt(o.recall)} ${fmt(o.mrr)} ${fmt(o.hardneg3)} | ${fmt(b.ndcg)} ${fmt(b.recall)} ${fmt(b.mrr)} ${fmt(b.hardneg3)}`);
    const avg = (f: (x: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0) / rows.length;
    console.log(`${'MEAN'.padEnd(14)} ${fmt(avg((r) => r[1].ndcg))} ${fmt(avg((r) => r[1].recall))} ${fmt(avg((r) => r[1].mrr))} ${fmt(avg((r) => r[1].hardneg3))} | ${fmt(avg((r) => r[2].ndcg))} ${fmt(avg((r) => r[2].recall))} ${fmt(avg((r) => r[2].mrr))} ${fmt(avg((r) => r[2].hardneg3))}`);
  }
}

if (require.main === module) main();
