import { Wallet } from 'ethers';
import type { TestApp } from '../helpers/app';

/** The PUBLIC_URL startTestApp uses: SIWE messages must be bound to it. */
export const PUBLIC = new URL('http://localhost:3001');

export interface SiweFields {
  domain?: string;
  uri?: string;
  chainId?: number;
  nonce: string;
  address: string;
  issuedAt?: Date;
  expirationTime?: Date | null;
  notBefore?: Date;
}

/**
 * The message the matching scorer signs (shared/eval/score-matching.mjs, siweMessage): domain
 * and URI from PUBLIC_URL, a statement, Issued At now and Expiration Time ten minutes on.
 * Options change one field at a time for the refusal tests.
 */
export function siweMessage(f: SiweFields): string {
  const issuedAt = f.issuedAt ?? new Date();
  const exp = f.expirationTime === undefined ? new Date(issuedAt.getTime() + 10 * 60 * 1000) : f.expirationTime;
  return (
    `${f.domain ?? PUBLIC.host} wants you to sign in with your Ethereum account:\n${f.address}\n\n` +
    `Sign in to run the matching evaluation.\n\n` +
    `URI: ${f.uri ?? PUBLIC.origin}\nVersion: 1\nChain ID: ${f.chainId ?? 1}\nNonce: ${f.nonce}\n` +
    `Issued At: ${issuedAt.toISOString()}` +
    (exp ? `\nExpiration Time: ${exp.toISOString()}` : '') +
    (f.notBefore ? `\nNot Before: ${f.notBefore.toISOString()}` : '')
  );
}

export async function nonceFrom(app: TestApp): Promise<string> {
  const res = await app.http.get('/api/auth/siwe/nonce').expect(200);
  return res.body.nonce;
}

/** Signs in as the scorer does: GET a nonce, sign the message with the wallet, POST it. */
export async function siweSignIn(app: TestApp, wallet: Wallet = Wallet.createRandom() as unknown as Wallet, fields: Partial<SiweFields> = {}) {
  const nonce = await nonceFrom(app);
  const message = siweMessage({ nonce, address: wallet.address, ...fields });
  const signature = await wallet.signMessage(message);
  const res = await app.http.post('/api/auth/siwe/verify').send({ message, signature });
  return { res, wallet, message, signature, nonce };
}
