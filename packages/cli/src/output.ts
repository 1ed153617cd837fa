import Table from 'cli-table3';
import type { Colours } from './context';

/** A table for people: plain borders, header in bold only when colours are on. */
export function table(colour: Colours, head: string[], rows: Array<Array<string | number | null | undefined>>, widths?: Array<number | null>): string {
  const t = new Table({
    head: head.map((h) => colour.bold(h)),
    style: { head: [], border: [] },
    wordWrap: true,
    ...(widths ? { colWidths: widths } : {}),
  });
  for (const r of rows) t.push(r.map((c) => (c === null || c === undefined ? '' : String(c))));
  return t.toString();
}

/** `key: value` lines, keys aligned. */
export function fields(colour: Colours, pairs: Array<[string, unknown]>): string {
  const w = Math.max(...pairs.map(([k]) => k.length));
  return pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${colour.dim(`${k}:`.padEnd(w + 1))} ${v === null ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}

export const shortId = (id: string | null | undefined): string => (id ? id.slice(0, 8) : '-');

export const oneLine = (text: string, max = 80): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');
