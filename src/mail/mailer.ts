import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { currentLogger, type Logger } from '../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /**
   * One line a person needs from this mail when no SMTP_URL is configured (`Sign-in code for
   * ada@example.com: 123456`): printed on its own, outside the JSON log, so it can be read or grepped.
   */
  notice?: string;
}

export interface MailerOptions {
  /** Whether notices are printed (not when the log is silent, as in tests). */
  printNotices?: boolean;
  /** Where notices go; standard output by default. */
  out?: (line: string) => void;
}

/**
 * Sends mail over SMTP_URL. Without one, the message goes to the log at info level and its
 * notice (if any) to standard output on a line of its own, so a local instance can still sign
 * people in.
 */
export class Mailer {
  private readonly transport: Transporter | null;
  /** The last messages sent, newest last (kept for inspection in tests and local runs). */
  readonly outbox: MailMessage[] = [];

  private readonly printNotices: boolean;
  private readonly out: (line: string) => void;

  constructor(
    smtpUrl: string | undefined,
    private readonly from: string,
    private readonly logger: Logger,
    options: MailerOptions = {},
  ) {
    // nodemailer (35 modules) loads only where SMTP_URL is set: without it, mail goes to the log.
    this.transport = smtpUrl ? (require('nodemailer') as typeof Nodemailer).createTransport(smtpUrl) : null;
    this.printNotices = options.printNotices ?? true;
    this.out = options.out ?? ((line) => void process.stdout.write(`${line}\n`));
  }

  get configured(): boolean {
    return this.transport !== null;
  }

  async send(msg: MailMessage): Promise<void> {
    this.outbox.push(msg);
    if (this.outbox.length > 100) this.outbox.shift();
    if (!this.transport) {
      currentLogger(this.logger).info({ mail: { to: msg.to, subject: msg.subject, text: msg.text } }, 'mail (no SMTP_URL configured)');
      if (msg.notice && this.printNotices) this.out(msg.notice);
      return;
    }
    await this.transport.sendMail({ from: this.from, to: msg.to, subject: msg.subject, text: msg.text });
  }

  close(): void {
    this.transport?.close();
  }
}
