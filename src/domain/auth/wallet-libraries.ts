import type * as Ethers from 'ethers';
import type * as Siwe from 'siwe';

// ethers (about 140 modules) and siwe (ethers again, with its own parser) load on the first
// wallet check rather than at startup: most processes and most requests never see a wallet, and
// every process (every test file, too) paid for them at import. Node caches each after its first use.

/** ethers, loaded on first use. */
export function ethers(): typeof Ethers {
  return require('ethers') as typeof Ethers;
}

/** siwe, loaded on first use. */
export function siwe(): typeof Siwe {
  return require('siwe') as typeof Siwe;
}
