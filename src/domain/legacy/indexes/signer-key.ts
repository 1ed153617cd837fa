import { randomBytes } from 'node:crypto';
import { ethers } from '../../auth/wallet-libraries';

/**
 * A fresh secp256k1 key pair for an index created without a signer key. Only the public half
 * is kept: nothing in this service signs as an index, and a private key nobody uses is a secret
 * that could only leak (docs/adr/0082-indexes.md).
 */
export function mintSignerPublicKey(): string {
  return new (ethers().SigningKey)(randomBytes(32)).publicKey;
}

/** The uncompressed 0x04… form of a given key, so one key has one spelling. */
export function normalizePublicKey(key: string): string {
  return ethers().SigningKey.computePublicKey(key, false);
}
