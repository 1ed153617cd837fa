import { getAddress, hexlify, toUtf8Bytes } from 'ethers';
import type { SiweSigner } from '@intro-match/client';

/** An injected EIP-1193 provider (a browser wallet's `window.ethereum`). */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export function injectedWallet(): Eip1193Provider | null {
  const eth = (window as unknown as { ethereum?: Eip1193Provider }).ethereum;
  return eth && typeof eth.request === 'function' ? eth : null;
}

/**
 * Asks the wallet for its account and chain, and returns a signer for the typed client's SIWE
 * sign-in: messages are signed with personal_sign (hex-encoded UTF-8, as EIP-1193 wallets expect).
 */
export async function walletSigner(eth: Eip1193Provider): Promise<{ signer: SiweSigner; chainId: number; address: string }> {
  const accounts = (await eth.request({ method: 'eth_requestAccounts' })) as string[];
  if (!accounts?.length) throw new Error('The wallet shared no account.');
  const address = getAddress(accounts[0]!);
  const chainHex = (await eth.request({ method: 'eth_chainId' })) as string;
  const chainId = Number.parseInt(chainHex, 16) || 1;
  const signer: SiweSigner = {
    getAddress: async () => address,
    signMessage: async (message: string) => (await eth.request({ method: 'personal_sign', params: [hexlify(toUtf8Bytes(message)), address.toLowerCase()] })) as string,
  };
  return { signer, chainId, address };
}
