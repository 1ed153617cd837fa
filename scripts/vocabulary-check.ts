/**
 * Lists every phrase of three or more words that the general reader's and ranker's code or data
 * share with an evaluation set (../shared/eval/*.json beside the repository, and the sets under
 * test/). A shared phrase is allowed only when scripts/vocabulary-allow.tsv lists it with the
 * reason it is general language. Run in CI by test/matching/vocabulary.test.ts, and by hand:
 *
 *   node -r @swc-node/register scripts/vocabulary-check.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/**
 * Every judgement the service makes rests on the general reader, with no vocabulary of trades
 * (ADR 0120): discover's reader and ranker, the attribute and place rules, the local preparer
 * (ADR 0121), the hosted negotiator's checks and messages, and the opportunity cards. All of
 * that code is checked; a general phrase it must share with a set is listed with its reason in
 * vocabulary-allow.tsv.
 */
export const CHECKED = ['src/domain/reading', 'src/domain/matching', 'src/domain/negotiations', 'src/domain/intents/local-intent-preparer.ts', 'src/domain/intents/draft-signals.ts', 'src/domain/intents/recovery-questions.ts', 'src/domain/intents/intent-summary.ts', 'src/domain/opportunities/card-evidence.ts', 'src/domain/opportunities/local-card-writer.ts'];

function files(path: string): string[] {
  const abs = join(ROOT, path);
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return [abs];
  return readdirSync(abs).flatMap((f) => files(join(path, f)));
}

const words = (text: string) => text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

function trigrams(ws: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 2 < ws.length; i++) out.add(`${ws[i]} ${ws[i + 1]} ${ws[i + 2]}`);
  return out;
}

/** The text inside string and template literals: where words a program matches on live. */
function literals(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** Intent texts of every evaluation set that can be found. */
export function evaluationTexts(): Array<{ set: string; texts: string[] }> {
  const dirs = [join(ROOT, '..', 'shared', 'eval'), join(ROOT, '..', '..', 'shared', 'eval'), join(ROOT, 'test', 'fixtures'), join(ROOT, 'test', 'matching', 'fixtures')];
  const out: Array<{ set: string; texts: string[] }> = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      const data = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { intents?: Array<{ text: string }> };
      if (data.intents) out.push({ set: relative(ROOT, join(dir, f)), texts: data.intents.map((i) => i.text) });
    }
  }
  return out;
}

export function allowList(): Map<string, string> {
  const rows = readFileSync(join(ROOT, 'scripts', 'vocabulary-allow.tsv'), 'utf8').split('\n');
  const out = new Map<string, string>();
  for (const row of rows) {
    if (!row.trim() || row.startsWith('#')) continue;
    const [phrase, reason] = row.split('\t');
    if (phrase && reason?.trim()) out.set(words(phrase).join(' '), reason.trim());
  }
  return out;
}

/** Shared phrases not on the allow-list: `phrase → [file, set]`. */
export function findShared(): Array<{ phrase: string; file: string; set: string }> {
  const evalGrams = evaluationTexts().map((s) => ({ set: s.set, grams: trigrams(s.texts.flatMap((t) => [...words(t), '\u0000'])) }));
  const allowed = allowList();
  const found: Array<{ phrase: string; file: string; set: string }> = [];
  for (const file of CHECKED.flatMap(files)) {
    const grams = new Set(literals(readFileSync(file, 'utf8')).flatMap((l) => [...trigrams(words(l))]));
    for (const g of grams) {
      if (allowed.has(g)) continue;
      const hit = evalGrams.find((e) => e.grams.has(g));
      if (hit) found.push({ phrase: g, file: relative(ROOT, file), set: hit.set });
    }
  }
  return found;
}

if (require.main === module) {
  const shared = findShared();
  for (const s of shared) console.log(`${s.file}: "${s.phrase}" also in ${s.set}`);
  console.log(shared.length ? `${shared.length} shared phrases not on scripts/vocabulary-allow.tsv` : 'no shared phrase outside the allow-list');
  process.exit(shared.length ? 1 : 0);
}
