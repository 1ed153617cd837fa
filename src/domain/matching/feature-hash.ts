/**
 * FNV-1a, 32 bits: the hash both local embedders use to place a feature in a vector (the
 * hashing trick). Stable across processes and versions, which stored vectors depend on.
 */
export function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
