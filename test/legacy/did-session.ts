import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { getAddress, Wallet } from 'ethers';
import { base58btc } from 'multiformats/bases/base58';

/**
 * Mints DID sessions the way wallet DID-session libraries do (did-session with
 * @didtools/pkh-ethereum), from first principles, so jest can run it (those libraries are
 * ESM-only; mint-with-did-session.mjs uses them for real and did-session.test.ts checks the
 * two agree): a random 32-byte ed25519 seed is the session key, its did:key is the SIWE URI
 * the wallet signs (EIP-191, with the EIP-55 address), and the serialized session is base64url
 * of `{ sessionKeySeed, cacao }`. Options change one thing at a time for the refusal tests.
 */
export interface MintOptions {
  wallet?: Wallet;
  /** Signs instead of `wallet` (a forged session: the signature is not iss's). */
  signer?: Wallet;
  chainId?: number;
  domain?: string;
  statement?: string | null;
  issuedAt?: Date;
  /** null: no expiration time. */
  expirationTime?: Date | null;
  notBefore?: Date;
  resources?: string[];
  /** The seed serialized with the session; defaults to the one the wallet delegated to. */
  sessionSeed?: Buffer;
  /** How the signed text spells the address: EIP-55 (did-session) or lower-cased (older clients). */
  addressSpelling?: 'eip55' | 'lower';
  /** Time fields written as given (signed as such), for sessions whose times cannot be read. */
  rawTimes?: { iat?: string; exp?: string; nbf?: string };
}

export interface MintedSession {
  token: string;
  wallet: Wallet;
  /** The caller's DID: did:pkh:eip155:<chainId>:<address lower-cased>. */
  did: string;
  cacao: Record<string, any>;
  headers: { Authorization: string };
}

function didKeyOf(seed: Buffer): string {
  const key = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return `did:key:${base58btc.encode(Buffer.concat([Buffer.from([0xed, 0x01]), spki.subarray(spki.length - 32)]))}`;
}

/** The EIP-4361 text as @didtools/cacao's SiweMessage writes it. */
function siweText(p: Record<string, any>, chainId: number, address: string): string {
  const prefix = [`${p.domain} wants you to sign in with your Ethereum account:`, address].join('\n');
  const suffix = [`URI: ${p.aud}`, `Version: ${p.version}`, `Chain ID: ${chainId}`, `Nonce: ${p.nonce}`, `Issued At: ${p.iat}`];
  if (p.exp) suffix.push(`Expiration Time: ${p.exp}`);
  if (p.nbf) suffix.push(`Not Before: ${p.nbf}`);
  if (p.resources?.length) suffix.push(['Resources:', ...p.resources.map((r: string) => `- ${r}`)].join('\n'));
  return [p.statement ? [prefix, p.statement].join('\n\n') : prefix, suffix.join('\n')].join('\n\n');
}

export async function mintDidSession(o: MintOptions = {}): Promise<MintedSession> {
  const wallet = o.wallet ?? (Wallet.createRandom() as unknown as Wallet);
  const chainId = o.chainId ?? 1;
  const seed = randomBytes(32);
  const address = wallet.address.toLowerCase();
  const iat = o.issuedAt ?? new Date();
  const exp = o.expirationTime === undefined ? new Date(iat.getTime() + 7 * 24 * 3600 * 1000) : o.expirationTime;
  const p: Record<string, any> = {
    domain: o.domain ?? 'localhost:3001',
    iat: iat.toISOString(),
    iss: `did:pkh:eip155:${chainId}:${address}`,
    aud: didKeyOf(seed),
    version: '1',
    nonce: randomBytes(8).toString('hex').slice(0, 10),
  };
  if (o.notBefore) p.nbf = o.notBefore.toISOString();
  if (exp) p.exp = exp.toISOString();
  Object.assign(p, o.rawTimes ?? {});
  const statement = o.statement === undefined ? 'Give this application access to some of your data on Ceramic' : o.statement;
  if (statement) p.statement = statement;
  p.resources = o.resources ?? ['ceramic://*'];
  // Wallets sign the EIP-55 spelling (did-session's signMessage({ eip55: true })).
  const spelled = o.addressSpelling === 'lower' ? address : getAddress(address);
  const signature = await (o.signer ?? wallet).signMessage(siweText(p, chainId, spelled));
  const cacao = { h: { t: 'eip4361' }, p, s: { t: 'eip191', s: signature } };
  const token = Buffer.from(JSON.stringify({ sessionKeySeed: (o.sessionSeed ?? seed).toString('base64'), cacao })).toString('base64url');
  return { token, wallet, did: p.iss, cacao, headers: { Authorization: `Bearer ${token}` } };
}
