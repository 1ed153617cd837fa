import { z } from 'zod';
import { ethers } from './wallet-libraries';

/**
 * CACAO (chain-agnostic capability object) as wallet DID-session libraries serialize it: a
 * header naming the payload format, the fields of the Sign-In with Ethereum message the wallet
 * signed, and the EIP-191 signature over that message's text.
 */
export const cacaoSchema = z.object({
  h: z.object({ t: z.literal('eip4361') }),
  p: z.object({
    domain: z.string().min(1).max(512),
    iss: z.string().max(200),
    aud: z.string().min(1).max(512),
    version: z.string().max(16),
    nonce: z.string().max(256),
    iat: z.string().max(64),
    exp: z.string().max(64).optional(),
    nbf: z.string().max(64).optional(),
    statement: z.string().max(4096).optional(),
    requestId: z.string().max(512).optional(),
    resources: z.array(z.string().max(2048)).max(256).optional(),
  }),
  s: z.object({ t: z.literal('eip191'), s: z.string().regex(/^0x[0-9a-fA-F]{130}$/) }),
});

export type Cacao = z.infer<typeof cacaoSchema>;
export type CacaoPayload = Cacao['p'];

/** `iss` of an Ethereum account: did:pkh with a CAIP-10 account id. */
const PKH_ETHEREUM_RE = /^did:pkh:eip155:(\d{1,16}):(0x[0-9a-fA-F]{40})$/;

export function ethereumIssuer(iss: string): { chainId: number; address: string } | null {
  const m = PKH_ETHEREUM_RE.exec(iss);
  if (!m || !Number.isSafeInteger(Number(m[1]))) return null;
  return { chainId: Number(m[1]), address: m[2].toLowerCase() };
}

/** Before this day, wallets put the Chain ID line after Request ID (the first CACAO format). */
export const LEGACY_CHAIN_ID_ORDER_UNTIL = Date.parse('2022-09-20');

/**
 * The EIP-4361 text the wallet signed, rebuilt from the CACAO payload. `address` is the
 * spelling to put in it (wallets sign either the lower-cased or the EIP-55 form).
 */
export function siweTextOf(p: CacaoPayload, chainId: number, address: string, legacyOrder = false): string {
  const header = `${p.domain} wants you to sign in with your Ethereum account:\n${address}`;
  const prefix = p.statement ? `${header}\n\n${p.statement}` : header;
  const lines = [`URI: ${p.aud}`, `Version: ${p.version}`];
  if (!legacyOrder) lines.push(`Chain ID: ${chainId}`);
  lines.push(`Nonce: ${p.nonce}`, `Issued At: ${p.iat}`);
  if (p.exp) lines.push(`Expiration Time: ${p.exp}`);
  if (p.nbf) lines.push(`Not Before: ${p.nbf}`);
  if (p.requestId) lines.push(`Request ID: ${p.requestId}`);
  if (legacyOrder) lines.push(`Chain ID: ${chainId}`);
  if (p.resources && p.resources.length > 0) lines.push(['Resources:', ...p.resources.map((r) => `- ${r}`)].join('\n'));
  return `${prefix}\n\n${lines.join('\n')}`;
}

/**
 * Every text a wallet may have signed for this payload, most likely first: did-session signs
 * the EIP-55 spelling, older clients the lower-cased one. Each try costs a key recovery.
 */
export function candidateTexts(p: CacaoPayload, chainId: number, address: string): string[] {
  const lower = address.toLowerCase();
  const checksummed = ethers().getAddress(lower);
  const texts = [siweTextOf(p, chainId, checksummed), siweTextOf(p, chainId, lower)];
  if (Date.parse(p.iat) <= LEGACY_CHAIN_ID_ORDER_UNTIL) {
    texts.push(siweTextOf(p, chainId, lower, true), siweTextOf(p, chainId, checksummed, true));
  }
  return texts;
}

/** Clock difference tolerated between the wallet and this server, as for SIWE sign-in. */
export const DID_SESSION_SKEW_MS = 5 * 60 * 1000;

/** Why the payload's time fields refuse it at `now`, or null when they hold. */
export function timeProblem(p: CacaoPayload, now: number): string | null {
  const iat = Date.parse(p.iat);
  if (Number.isNaN(iat)) return 'DID session has an unreadable issued-at time';
  if (iat > now + DID_SESSION_SKEW_MS) return 'DID session is issued in the future';
  // A bearer capability that never ends cannot be taken back; wallet libraries always set one.
  if (!p.exp) return 'DID session has no expiration time';
  const exp = Date.parse(p.exp);
  if (Number.isNaN(exp)) return 'DID session has an unreadable expiration time';
  if (exp + DID_SESSION_SKEW_MS < now) return 'DID session expired';
  if (p.nbf) {
    const nbf = Date.parse(p.nbf);
    if (Number.isNaN(nbf)) return 'DID session has an unreadable not-before time';
    if (nbf > now + DID_SESSION_SKEW_MS) return 'DID session is not valid yet';
  }
  return null;
}
