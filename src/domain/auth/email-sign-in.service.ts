import { createHmac, randomInt } from 'node:crypto';
import { safeEqual } from './secrets';
import type { Mailer } from '../../mail/mailer';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { DomainError, unavailable } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { signInRefused } from './auth-errors';
import { emailStartSchema, emailVerifySchema } from './auth.schemas';
import { countEmailCodeAttempt, deleteSpentEmailCodes, emailCodeState, emailStartRetryAfter, storeEmailCode, useEmailCode, withdrawEmailCode } from './email-code.repository';
import type { ClientOrigin, SignedIn, SignInService } from './sign-in.service';

export const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong codes allowed per code; then a new start is needed. */
export const EMAIL_CODE_MAX_ATTEMPTS = 5;
/** Starts allowed per address per window: with the attempt limit, at most 25 guesses an hour. */
export const EMAIL_STARTS_PER_WINDOW = 5;
export const EMAIL_START_WINDOW_MS = 60 * 60 * 1000;

/** Sign-in by a 6-digit code sent to an email address. */
export class EmailSignInService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly signIns: SignInService,
    private readonly mailer: () => Mailer,
  ) {
    super(core);
  }

  /**
   * Sends a new code, replacing any earlier one. The answer is the same whether or not an
   * account exists for the address: the account is only looked up when the code is verified.
   */
  async start(input: unknown): Promise<void> {
    const { email } = parseInput(emailStartSchema, input);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await deleteSpentEmailCodes(this.em, EMAIL_START_WINDOW_MS);
    const stored = await storeEmailCode(this.em, {
      email,
      codeHash: this.codeHash(email, code),
      ttlMs: EMAIL_CODE_TTL_MS,
      windowMs: EMAIL_START_WINDOW_MS,
      startsPerWindow: EMAIL_STARTS_PER_WINDOW,
    });
    if (!stored) throw await this.startLimited(email);
    try {
      await this.mailer().send({
        to: email,
        subject: 'Your sign-in code',
        text: `Your sign-in code is ${code}\n\nIt expires in 10 minutes and works once. If you did not ask to sign in, ignore this message.`,
        notice: `Sign-in code for ${email}: ${code}`,
      });
    } catch (err) {
      this.logger.error({ err }, 'sign-in code mail failed');
      // The code never reached anyone: withdraw it and give the start back.
      await withdrawEmailCode(this.em, email);
      throw unavailable('mail_unavailable', { detail: 'The sign-in code could not be sent; try again later' });
    }
  }

  async verify(input: unknown, origin: ClientOrigin): Promise<SignedIn> {
    const { email, code } = parseInput(emailVerifySchema, input);
    const counted = await countEmailCodeAttempt(this.em, email, EMAIL_CODE_MAX_ATTEMPTS);
    if (!counted) throw await this.noUsableCode(email);
    const hash = this.codeHash(email, code);
    if (!safeEqual(counted.code_hash, hash)) {
      const left = EMAIL_CODE_MAX_ATTEMPTS - counted.attempts;
      throw signInRefused('Incorrect code', left > 0 ? `${left} attempt(s) left` : 'No attempts left; request a new code');
    }
    if (!(await useEmailCode(this.em, email, hash))) throw signInRefused('Code already used', 'Request a new code');
    return this.signIns.signIn({ email }, 'email', origin);
  }

  private codeHash(email: string, code: string): string {
    return createHmac('sha256', this.config.SESSION_SECRET).update(`email-code:${email}:${code}`).digest('hex');
  }

  private async noUsableCode(email: string): Promise<DomainError> {
    const row = await emailCodeState(this.em, email);
    if (!row) return signInRefused('No sign-in code is pending for this email', 'Request a code with POST /api/auth/email/start');
    if (row.expired) return signInRefused('Code expired', 'Codes are valid for 10 minutes; request a new one');
    return signInRefused('Too many incorrect codes', 'Request a new code');
  }

  private async startLimited(email: string): Promise<DomainError> {
    const retryAfter = Math.max(1, Number((await emailStartRetryAfter(this.em, email, EMAIL_START_WINDOW_MS)) ?? 1));
    return new DomainError('RATE_LIMITED', 'rate_limited', {
      detail: `Too many sign-in codes requested for this address; retry in ${retryAfter} s`,
      retryAfter,
    });
  }
}
