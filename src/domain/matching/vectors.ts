/** Swaps the two side blocks of a vector of `side`-sized blocks. */
export function swapSides(doc: Float32Array, side: number): Float32Array {
  const out = new Float32Array(doc.length);
  out.set(doc.subarray(side, 2 * side), 0);
  out.set(doc.subarray(0, side), side);
  out.set(doc.subarray(2 * side), 2 * side);
  return out;
}

/** Side blocks are equal; the topic block takes the rest. */
export function blockSizes(dimensions: number): { side: number; topic: number } {
  const side = Math.floor((dimensions * 3) / 8);
  return { side, topic: dimensions - 2 * side };
}

export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

export function toBuffer(v: Float32Array): Buffer {
  return Buffer.from(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

export function fromBuffer(b: Buffer): Float32Array {
  const copy = new Uint8Array(b.length);
  copy.set(b);
  return new Float32Array(copy.buffer);
}
