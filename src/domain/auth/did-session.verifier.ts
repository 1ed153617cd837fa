import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Actor, AuthResult } from './actor';
import type { BearerVerifier } from './authenticate';
import { cacaoSchema, candidateTexts, ethereumIssuer, timeProblem, type CacaoPayload } from './cacao.rules';
import { didKeyOfSeed } from './did-key';
import { sha256 } from './secrets';
import { ethers } from './wallet-libraries';

/** The serialized session: base64url of this JSON (decisions.md section 5). */
const sessionSchema = z.object({ sessionKeySeed: z.string().max(128), cacao: cacaoSchema });

/** Larger bearer values are not DID sessions a wallet library would make. */
const MAX_TOKEN_LENGTH = 32 * 1024;
const CACHE_SIZE = 2000;

export interface VerifiedDidSession {
  /** did:pkh:eip155:<chainId>:<address lower-cased>, the caller. */
  did: string;
  address: string;
  chainId: number;
  payload: CacaoPayload;
}

/** Finds the account of a wallet, creating it on first use (as SIWE sign-in does). */
export type WalletAccounts = (em: EntityManager, address: string, chainId: number) => Promise<{ id: string }>;

export interface DidSessionOptions {
  /** When non-empty, only CACAOs whose `domain` is listed are accepted. */
  domains?: ReadonlySet<string>;
  now?: () => number;
}

const refused = (problem: string): AuthResult => ({ actor: null, problem });

function decodeJson(token: string): unknown {
  if (token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+={0,2}$/.test(token)) return undefined;
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function seedBytes(text: string): Buffer | null {
  // did-session writes the seed as padded base64; url-safe text is accepted too.
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : null;
}

function recovers(text: string, signature: string, address: string): boolean {
  try {
    return ethers().verifyMessage(text, signature).toLowerCase() === address;
  } catch {
    return false;
  }
}

/**
 * Verifies DID sessions with no network: the CACAO's SIWE text is rebuilt and its EIP-191
 * signer must be `iss`, the time fields must hold (5 minutes skew), and the did:key derived
 * from `sessionKeySeed` must be `aud`, the key the wallet delegated to. The caller is the
 * wallet's account: the same user a SIWE sign-in of that wallet reaches.
 */
export class DidSessionVerifier implements BearerVerifier {
  /** Signature and key checks are the costly part; their outcome is kept per token. */
  private readonly verified = new Map<string, VerifiedDidSession>();
  private readonly now: () => number;

  constructor(
    private readonly accounts: WalletAccounts,
    private readonly opts: DidSessionOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  async verify(em: EntityManager, token: string): Promise<AuthResult | null> {
    const checked = this.check(token);
    if (checked === null) return null;
    if ('problem' in checked) return refused(checked.problem);
    const user = await this.accounts(em, checked.address, checked.chainId);
    const actor: Actor = { userId: user.id, credential: 'did', did: checked.did };
    return { actor, problem: null };
  }

  /** null: not a DID session at all; `{ problem }`: a DID session that does not verify. */
  check(token: string): VerifiedDidSession | { problem: string } | null {
    const key = sha256(token);
    const known = this.verified.get(key);
    if (known) {
      const problem = timeProblem(known.payload, this.now());
      return problem ? { problem } : known;
    }
    const json = decodeJson(token);
    if (!json || typeof json !== 'object' || !('cacao' in json) || !('sessionKeySeed' in json)) return null;
    const parsed = sessionSchema.safeParse(json);
    if (!parsed.success) return { problem: 'Malformed DID session' };
    const { sessionKeySeed, cacao } = parsed.data;
    const p = cacao.p;
    const issuer = ethereumIssuer(p.iss);
    if (!issuer) return { problem: 'DID session issuer is not an Ethereum account (did:pkh:eip155)' };
    if (this.opts.domains?.size && !this.opts.domains.has(p.domain)) return { problem: 'DID session was made for another domain' };
    const texts = candidateTexts(p, issuer.chainId, issuer.address);
    if (!texts.some((t) => recovers(t, cacao.s.s, issuer.address))) return { problem: 'DID session signature does not match its issuer' };
    const problem = timeProblem(p, this.now());
    if (problem) return { problem };
    const seed = seedBytes(sessionKeySeed);
    if (!seed) return { problem: 'DID session key seed is not 32 bytes of base64' };
    if (didKeyOfSeed(seed) !== p.aud) return { problem: 'DID session key does not match the audience the wallet signed for' };
    const session: VerifiedDidSession = { did: `did:pkh:eip155:${issuer.chainId}:${issuer.address}`, ...issuer, payload: p };
    if (this.verified.size >= CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(key, session);
    return session;
  }
}
