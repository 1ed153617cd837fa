import { base36 } from 'multiformats/bases/base36';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';

/** True when the text parses as a CID (v0 base58btc, or v1 in base32, base58btc or base36). */
export function isCid(value: string): boolean {
  if (value.length > 200) return false;
  try {
    if (value.startsWith('k')) CID.parse(value, base36.decoder);
    else CID.parse(value);
    return true;
  } catch {
    return false;
  }
}

/** The CIDv1 (raw codec, sha2-256) of some bytes, in base32: what IPFS gives a raw block. */
export async function rawCidOf(bytes: Uint8Array): Promise<string> {
  const digest = await sha256.digest(bytes);
  return CID.create(1, raw.code, digest).toString();
}
