import type { SiweResponse } from 'siwe';
import { SiweNonce } from '../../entities/siwe-nonce.entity';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { parseInput } from '../shared/validation';
import { signInRefused } from './auth-errors';
import { deleteExpiredSiweNonces, recordWalletChain, siweNonceUse, spendSiweNonce } from './auth.repository';
import { siweVerifySchema } from './auth.schemas';
import type { ClientOrigin, SignedIn, SignInService } from './sign-in.service';
import { checkSignatureFormat, checkSiweBindings, instantWithinWindow, parseSiweMessage } from './siwe-message.rules';
import { insertSiweNonce } from './credentials.repository';
import { siwe } from './wallet-libraries';

export const SIWE_NONCE_TTL_MS = 10 * 60 * 1000;

/** Sign-In with Ethereum (EIP-4361): nonces this server issues, and verification of signed messages. */
export class SiweService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly signIns: SignInService,
  ) {
    super(core);
  }

  async issueNonce(): Promise<SiweNonce> {
    await deleteExpiredSiweNonces(this.em);
    const row = new SiweNonce();
    row.nonce = siwe().generateNonce();
    row.expiresAt = new Date(Date.now() + SIWE_NONCE_TTL_MS);
    await insertSiweNonce(this.em, row);
    return row;
  }

  async verify(input: unknown, origin: ClientOrigin): Promise<SignedIn> {
    const { message, signature } = parseInput(siweVerifySchema, input);
    const now = new Date();
    const msg = parseSiweMessage(message);
    checkSiweBindings(msg, { publicUrl: new URL(this.config.PUBLIC_URL), now });
    // Spent before the signature is checked, atomically: a failed check uses it up too, and of
    // two verifications racing on one nonce, one wins.
    await this.consumeNonce(msg.nonce);
    checkSignatureFormat(signature);
    const result: SiweResponse = await msg.verify({ signature, time: instantWithinWindow(msg, now).toISOString() }, { suppressExceptions: true });
    if (!result.success) {
      const type = result.error?.type;
      if (type === siwe().SiweErrorType.INVALID_SIGNATURE) throw signInRefused('Signature does not match the address in the message');
      throw signInRefused('SIWE message refused', type ?? 'verification failed');
    }
    const walletAddress = msg.address.toLowerCase();
    const signedIn = await this.signIns.signIn({ walletAddress }, 'siwe', origin);
    await recordWalletChain(this.em, signedIn.user.id, msg.chainId);
    return signedIn;
  }

  private async consumeNonce(nonce: string): Promise<void> {
    if (await spendSiweNonce(this.em, nonce)) return;
    const row = await siweNonceUse(this.em, nonce);
    if (!row) throw signInRefused('Unknown nonce', 'Ask GET /api/auth/siwe/nonce for a nonce and sign a message that carries it');
    if (row.used_at) throw signInRefused('Nonce already used', 'Each nonce signs in once; ask for a new one');
    throw signInRefused('Nonce expired', 'Nonces are valid for 10 minutes; ask for a new one');
  }
}
