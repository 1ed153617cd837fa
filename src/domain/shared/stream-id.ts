import { createHash, randomBytes } from 'node:crypto';

/**
 * Ids that look like Ceramic stream ids and commit ids (decisions.md section 5: "Index, item
 * and embedding ids look like Ceramic stream ids (`kjzl6…`); versions look like commit ids").
 *
 * The bytes follow the StreamID layout: the multicodec 0xce (varint), the stream type (varint,
 * 3 = model instance document), then a CIDv1 (sha2-256). A commit id appends a
 * second CID naming the commit. The CIDs are dag-jose (signed commits), and the text is
 * multibase base36 (prefix `k`), so a stream id reads `kjzl6kcy…` (63 characters) like a
 * Ceramic model instance document, and a commit id is about twice as long. The digests are random or
 * derived from a seed: nothing here is anchored anywhere; the shape only keeps clients that
 * parse or display these ids working.
 */

const STREAMID_CODEC = 0xce;
const MODEL_INSTANCE_DOCUMENT = 3;
const CID_VERSION = 1;
const DAG_JOSE = 0x85;
const SHA2_256 = 0x12;
const DIGEST_LENGTH = 32;

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}

function readVarint(bytes: Uint8Array, at: number): [number, number] | null {
  let value = 0;
  let shift = 0;
  for (let i = at; i < bytes.length && shift < 28; i++) {
    value |= (bytes[i] & 0x7f) << shift;
    if ((bytes[i] & 0x80) === 0) return [value, i + 1];
    shift += 7;
  }
  return null;
}

function cid(digest: Buffer): number[] {
  return [...varint(CID_VERSION), ...varint(DAG_JOSE), SHA2_256, DIGEST_LENGTH, ...digest];
}

function toBase36(bytes: number[] | Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let s = '';
  while (n > 0n) {
    s = BASE36[Number(n % 36n)] + s;
    n /= 36n;
  }
  return `k${'0'.repeat(zeros)}${s}`;
}

function fromBase36(text: string): Uint8Array | null {
  if (!/^k[0-9a-z]+$/.test(text)) return null;
  const body = text.slice(1);
  let zeros = 0;
  while (zeros < body.length && body[zeros] === '0') zeros++;
  let n = 0n;
  for (const ch of body.slice(zeros)) n = n * 36n + BigInt(BASE36.indexOf(ch));
  const out: number[] = [];
  while (n > 0n) {
    out.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...out]);
}

/** Where a CIDv1 starting at `at` ends, or null when the bytes there are not one. */
function cidEnd(bytes: Uint8Array, at: number): number | null {
  const version = readVarint(bytes, at);
  if (!version || version[0] !== CID_VERSION) return null;
  const codec = readVarint(bytes, version[1]);
  if (!codec) return null;
  const hash = readVarint(bytes, codec[1]);
  if (!hash) return null;
  const len = readVarint(bytes, hash[1]);
  if (!len || len[0] === 0) return null;
  const end = len[1] + len[0];
  return end <= bytes.length ? end : null;
}

/** Where the genesis CID ends inside decoded stream-id bytes, or null when they are not one. */
function genesisEnd(bytes: Uint8Array): number | null {
  const codec = readVarint(bytes, 0);
  if (!codec || codec[0] !== STREAMID_CODEC) return null;
  const type = readVarint(bytes, codec[1]);
  return type ? cidEnd(bytes, type[1]) : null;
}

/** A new stream id. With a seed the id is derived from it (same seed, same id). */
export function newStreamId(seed?: string | Buffer): string {
  const digest = seed === undefined ? randomBytes(DIGEST_LENGTH) : createHash('sha256').update(seed).digest();
  return toBase36([...varint(STREAMID_CODEC), ...varint(MODEL_INSTANCE_DOCUMENT), ...cid(digest)]);
}

/** A commit id (a version) of a stream id. With a seed the commit is derived from it. */
export function newCommitId(streamId: string, seed?: string | Buffer): string {
  const bytes = fromBase36(streamId);
  const end = bytes ? genesisEnd(bytes) : null;
  if (!bytes || end === null || end !== bytes.length) throw new Error(`not a stream id: ${streamId}`);
  const digest =
    seed === undefined ? randomBytes(DIGEST_LENGTH) : createHash('sha256').update(streamId).update(seed).digest();
  return toBase36([...bytes, ...cid(digest)]);
}

/** True for a text that decodes as a stream id (not a commit id). */
export function isStreamId(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 100) return false;
  const bytes = fromBase36(value);
  return !!bytes && genesisEnd(bytes) === bytes.length;
}

/** True for a text that decodes as a commit id; `of` also requires it to be a version of that stream. */
export function isCommitId(value: unknown, of?: string): value is string {
  if (typeof value !== 'string' || value.length > 200) return false;
  const bytes = fromBase36(value);
  const end = bytes ? genesisEnd(bytes) : null;
  if (!bytes || end === null || end === bytes.length) return false;
  if (cidEnd(bytes, end) !== bytes.length) return false;
  return of === undefined || streamIdOfCommit(value) === of;
}

/** The stream a commit id belongs to. */
export function streamIdOfCommit(commitId: string): string | null {
  const bytes = fromBase36(commitId);
  const end = bytes ? genesisEnd(bytes) : null;
  if (!bytes || end === null) return null;
  return toBase36(bytes.slice(0, end));
}
