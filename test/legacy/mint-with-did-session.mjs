// Mints DID sessions with the wallet DID-session libraries themselves (did-session and
// @didtools/pkh-ethereum, ESM-only, so run by node outside jest): an ethers wallet stands in
// for the browser wallet behind an EIP-1193 provider. Prints one JSON line:
// [{ token, address }] for `count` new wallets, sessions made for `domain`.
import { EthereumNodeAuth, getAccountId } from '@didtools/pkh-ethereum';
import { DIDSession } from 'did-session';
import { getBytes, Wallet } from 'ethers';

const count = Number(process.argv[2] ?? 1);
const domain = process.argv[3] ?? 'localhost:3001';
const out = [];
for (let i = 0; i < count; i++) {
  const wallet = Wallet.createRandom();
  const provider = {
    request: async ({ method, params }) => {
      if (method === 'eth_chainId') return '0x1';
      if (method === 'personal_sign') return wallet.signMessage(getBytes(params[0]));
      throw new Error(`unsupported ${method}`);
    },
  };
  const accountId = await getAccountId(provider, wallet.address);
  const authMethod = await EthereumNodeAuth.getAuthMethod(provider, accountId, domain);
  const session = await DIDSession.authorize(authMethod, { resources: ['ceramic://*'] });
  out.push({ token: session.serialize(), address: wallet.address.toLowerCase(), did: session.did.parent });
}
process.stdout.write(`${JSON.stringify(out)}\n`);
