import type { Facets } from './facets.rules';
import { fnv1a } from './feature-hash';
import type { Embedder } from './ports';
import { blockSizes, normalize, swapSides } from './vectors';

/** Adds a feature to a block by the hashing trick (a second hash picks the sign, so collisions cancel out on average). */
function addFeature(v: Float32Array, offset: number, size: number, feature: string, weight: number): void {
  const h = fnv1a(feature);
  const sign = fnv1a(feature, 0x9747b28c) & 1 ? 1 : -1;
  v[offset + (h % size)] += sign * weight;
}

function normalizeBlock(v: Float32Array, offset: number, size: number, scale: number): void {
  let n = 0;
  for (let i = offset; i < offset + size; i++) n += v[i] * v[i];
  n = Math.sqrt(n);
  if (n === 0) return;
  for (let i = offset; i < offset + size; i++) v[i] = (v[i] / n) * scale;
}

/**
 * The local default: a deterministic vector made from the general reading of the text (the
 * stems it gives, the stems it seeks, and the given stems and places as its topic). No model,
 * no network, the same vector on every machine. It only shortlists: the ranker reads every
 * shortlisted candidate's words with their rarity.
 */
export class LocalEmbedder implements Embedder {
  readonly id: string;

  constructor(readonly dimensions = 256) {
    this.id = `local-reading-v1-${dimensions}`;
  }

  async embed(items: Array<{ text: string; facets: Facets }>): Promise<Float32Array[]> {
    return items.map((i) => this.vectorOf(i.facets));
  }

  queryVector(doc: Float32Array): Float32Array {
    return swapSides(doc, blockSizes(doc.length).side);
  }

  vectorOf(f: Facets): Float32Array {
    const { side, topic } = blockSizes(this.dimensions);
    const v = new Float32Array(this.dimensions);
    const r = f.reading;
    for (const t of Object.keys(r.give)) addFeature(v, 0, side, `w:${t}`, 1);
    for (const t of Object.keys(r.seek)) addFeature(v, side, side, `w:${t}`, 1);
    for (const t of Object.keys(r.give)) addFeature(v, 2 * side, topic, `w:${t}`, 1);
    for (const p of r.places) addFeature(v, 2 * side, topic, `p:${p.country ?? p.key}`, 1);
    normalizeBlock(v, 0, side, 1);
    normalizeBlock(v, side, side, 1);
    normalizeBlock(v, 2 * side, topic, 0.6);
    return normalize(v);
  }
}
