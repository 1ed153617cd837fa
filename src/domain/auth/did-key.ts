import { createPrivateKey, createPublicKey } from 'node:crypto';
import { base58btc } from 'multiformats/bases/base58';

/** PKCS#8 DER header of an ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** The multicodec of an ed25519 public key (0xed as a varint). */
const ED25519_PUB_MULTICODEC = Buffer.from([0xed, 0x01]);

/** The raw 32-byte ed25519 public key of a 32-byte seed (RFC 8032 private key). */
export function ed25519PublicKey(seed: Uint8Array): Buffer {
  if (seed.length !== 32) throw new Error('an ed25519 seed is 32 bytes');
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seed)]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  // The SPKI encoding of an ed25519 key ends with the raw key.
  return spki.subarray(spki.length - 32);
}

/** did:key of an ed25519 public key: multicodec 0xed01 + key, multibase base58btc (`did:key:z6Mk…`). */
export function didKeyOfPublicKey(publicKey: Uint8Array): string {
  return `did:key:${base58btc.encode(Buffer.concat([ED25519_PUB_MULTICODEC, Buffer.from(publicKey)]))}`;
}

/** The did:key a DID session's key seed stands for. */
export function didKeyOfSeed(seed: Uint8Array): string {
  return didKeyOfPublicKey(ed25519PublicKey(seed));
}
