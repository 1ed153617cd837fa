import { createHmac, randomInt } from 'node:crypto';
import { safeEqual } from './secrets';
import type { Mailer } from '../../mail/mailer';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { DomainError, unavailable } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { signInRefused } from './auth-errors';
import { emailStartSchema, emailVerifySchema } from './auth.schemas';
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
    await this.em.execute(
      `delete from email_codes where expires_at < now() and window_started_at < now() - ? * interval '1 millisecond'`,
      [EMAIL_START_WINDOW_MS],
      'run',
    );
    // One statement replaces the code and counts the start; when the window's budget is spent
    // the conflict update is skipped and nothing comes back.
    const stored = await this.em.execute<Array<{ email: string }>>(
      `insert into email_codes (email, code_hash, attempts, expires_at, created_at, start_count, window_started_at)
       values (?, ?, 0, now() + ? * interval '1 millisecond', now(), 1, now())
       on conflict (email) do update set
         code_hash = excluded.code_hash, attempts = 0, expires_at = excluded.expires_at, created_at = excluded.created_at,
         start_count = case when email_codes.window_started_at > now() - ? * interval '1 millisecond' then email_codes.start_count + 1 else 1 end,
         window_started_at = case when email_codes.window_started_at > now() - ? * interval '1 millisecond' then email_codes.window_started_at else now() end
       where email_codes.start_count < ? or email_codes.window_started_at <= now() - ? * interval '1 millisecond'
       returning email`,
      [email, this.codeHash(email, code), EMAIL_CODE_TTL_MS, EMAIL_START_WINDOW_MS, EMAIL_START_WINDOW_MS, EMAIL_STARTS_PER_WINDOW, EMAIL_START_WINDOW_MS],
    );
    if (!stored.length) throw await this.startLimited(email);
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
      await this.em.execute(`update email_codes set expires_at = now(), start_count = greatest(start_count - 1, 0) where email = ?`, [email], 'run');
      throw unavailable('mail_unavailable', { detail: 'The sign-in code could not be sent; try again later' });
    }
  }

  async verify(input: unknown, origin: ClientOrigin): Promise<SignedIn> {
    const { email, code } = parseInput(emailVerifySchema, input);
    const counted = await this.em.execute<Array<{ code_hash: string; attempts: number }>>(
      `update email_codes set attempts = attempts + 1 where email = ? and expires_at > now() and attempts < ? returning code_hash, attempts`,
      [email, EMAIL_CODE_MAX_ATTEMPTS],
    );
    if (!counted.length) throw await this.noUsableCode(email);
    const hash = this.codeHash(email, code);
    if (!safeEqual(counted[0].code_hash, hash)) {
      const left = EMAIL_CODE_MAX_ATTEMPTS - counted[0].attempts;
      throw signInRefused('Incorrect code', left > 0 ? `${left} attempt(s) left` : 'No attempts left; request a new code');
    }
    // Single use: of two verifications racing with the right code, only one deletes the row.
    const used = await this.em.execute<Array<{ email: string }>>(`delete from email_codes where email = ? and code_hash = ? returning email`, [email, hash]);
    if (!used.length) throw signInRefused('Code already used', 'Request a new code');
    return this.signIns.signIn({ email }, 'email', origin);
  }

  private codeHash(email: string, code: string): string {
    return createHmac('sha256', this.config.SESSION_SECRET).update(`email-code:${email}:${code}`).digest('hex');
  }

  private async noUsableCode(email: string): Promise<DomainError> {
    const [row] = await this.em.execute<Array<{ expired: boolean; attempts: number }>>(
      `select expires_at <= now() as expired, attempts from email_codes where email = ?`,
      [email],
    );
    if (!row) return signInRefused('No sign-in code is pending for this email', 'Request a code with POST /api/auth/email/start');
    if (row.expired) return signInRefused('Code expired', 'Codes are valid for 10 minutes; request a new one');
    return signInRefused('Too many incorrect codes', 'Request a new code');
  }

  private async startLimited(email: string): Promise<DomainError> {
    const [row] = await this.em.execute<Array<{ retry_after: string | number }>>(
      `select ceil(extract(epoch from (window_started_at + ? * interval '1 millisecond' - now()))) as retry_after from email_codes where email = ?`,
      [EMAIL_START_WINDOW_MS, email],
    );
    const retryAfter = Math.max(1, Number(row?.retry_after ?? 1));
    return new DomainError('RATE_LIMITED', 'rate_limited', {
      detail: `Too many sign-in codes requested for this address; retry in ${retryAfter} s`,
      retryAfter,
    });
  }
}
