import type { SiweMessage } from 'siwe';
import { signInRefused } from './auth-errors';
import { ethers, siwe } from './wallet-libraries';

/** Clock difference tolerated between the wallet and this server (decisions.md 1). */
export const SIWE_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** What a message must be bound to: this server's public origin. */
export interface SiweExpectation {
  /** `new URL(PUBLIC_URL)`. */
  publicUrl: URL;
  now: Date;
}

export function parseSiweMessage(text: string): SiweMessage {
  try {
    return new (siwe().SiweMessage)(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw signInRefused('Malformed SIWE message', reason);
  }
}

/** Refuses a malformed signature before siwe tries it (siwe would print the failure to stderr). */
export function checkSignatureFormat(signature: string): void {
  try {
    ethers().Signature.from(signature);
  } catch {
    throw signInRefused('Malformed signature', 'Expected a 65-byte hex signature (0x…)');
  }
}

/**
 * Same scheme, port and host. The host is the one PUBLIC_URL names (decisions.md), also on
 * loopback: 127.0.0.1 and [::1] are other names, and a local client signs for PUBLIC_URL's.
 */
function sameOrigin(a: URL, b: URL): boolean {
  if (a.protocol !== b.protocol || a.port !== b.port || a.username || a.password) return false;
  return a.hostname === b.hostname;
}

function urlOrNull(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * The bindings siwe's own verify leaves to the server or checks without tolerance: domain and
 * scheme, URI origin, and the time fields with SIWE_CLOCK_SKEW_MS either way.
 */
export function checkSiweBindings(msg: SiweMessage, { publicUrl, now }: SiweExpectation): void {
  // Checked before the nonce is spent: a chain id the DID cannot carry exactly is refused here.
  if (!Number.isSafeInteger(msg.chainId) || msg.chainId < 1) {
    throw signInRefused('Invalid SIWE chain ID', 'Chain ID must be a positive integer below 2^53');
  }
  if (msg.scheme && `${msg.scheme.toLowerCase()}:` !== publicUrl.protocol) {
    throw signInRefused('SIWE scheme does not match this server', `Expected ${publicUrl.protocol.slice(0, -1)}, got ${msg.scheme}`);
  }
  const domain = urlOrNull(`${publicUrl.protocol}//${msg.domain}`);
  if (!domain || !sameOrigin(domain, publicUrl)) {
    throw signInRefused('SIWE domain does not match this server', `Expected ${publicUrl.host}, got ${msg.domain}`);
  }
  const uri = urlOrNull(msg.uri);
  if (!uri || !sameOrigin(uri, publicUrl)) {
    throw signInRefused('SIWE URI is not on this server', `Expected a URI on ${publicUrl.origin}, got ${msg.uri}`);
  }
  const t = now.getTime();
  if (msg.issuedAt && Date.parse(msg.issuedAt) > t + SIWE_CLOCK_SKEW_MS) {
    throw signInRefused('SIWE message is issued in the future', `Issued At ${msg.issuedAt}`);
  }
  if (msg.expirationTime && Date.parse(msg.expirationTime) + SIWE_CLOCK_SKEW_MS <= t) {
    throw signInRefused('SIWE message has expired', `Expiration Time ${msg.expirationTime}`);
  }
  if (msg.notBefore && Date.parse(msg.notBefore) - SIWE_CLOCK_SKEW_MS > t) {
    throw signInRefused('SIWE message is not valid yet', `Not Before ${msg.notBefore}`);
  }
  if (msg.notBefore && msg.expirationTime && Date.parse(msg.notBefore) >= Date.parse(msg.expirationTime)) {
    throw signInRefused('SIWE message is never valid', 'Not Before is not earlier than Expiration Time');
  }
}

/**
 * siwe compares its time fields with one instant and no tolerance. Once checkSiweBindings has
 * accepted the message with skew, this gives siwe an instant inside the message's own window.
 */
export function instantWithinWindow(msg: SiweMessage, now: Date): Date {
  let t = now.getTime();
  if (msg.expirationTime) t = Math.min(t, Date.parse(msg.expirationTime) - 1);
  if (msg.notBefore) t = Math.max(t, Date.parse(msg.notBefore));
  return new Date(t);
}

/** did:pkh of a wallet on an EVM chain (CAIP-10 account id). */
export const walletDid = (chainId: number, address: string) => `did:pkh:eip155:${chainId}:${address.toLowerCase()}`;
