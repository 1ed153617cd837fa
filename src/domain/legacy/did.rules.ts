/**
 * DIDs of the earlier route group. Callers are Ethereum accounts (did:pkh:eip155:<chain>:<address>);
 * one wallet is one user whatever chain a DID names, so lookups go by address.
 */
const PKH_RE = /^did:pkh:eip155:(\d{1,16}):(0x[0-9a-fA-F]{40})$/;
/** Any DID (W3C DID syntax: method and method-specific id). */
const DID_RE = /^did:[a-z0-9]+:[A-Za-z0-9._%:-]+$/;

export interface PkhDid {
  did: string;
  chainId: number;
  address: string;
}

/** A did:pkh of an Ethereum account, normalized (address lower-cased), or null. */
export function parsePkhDid(value: string): PkhDid | null {
  const m = PKH_RE.exec(value.trim());
  if (!m || !Number.isSafeInteger(Number(m[1]))) return null;
  const address = m[2].toLowerCase();
  const chainId = Number(m[1]);
  return { did: `did:pkh:eip155:${chainId}:${address}`, chainId, address };
}

export const isDid = (value: string) => value.length <= 512 && DID_RE.test(value);

/** The same DID with an Ethereum address lower-cased, so two spellings compare equal. */
export function normalizeDid(value: string): string {
  return parsePkhDid(value)?.did ?? value.trim();
}
