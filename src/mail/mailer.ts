import nodemailer, { type Transporter } from 'nodemailer';
import { currentLogger, type Logger } from '../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends mail over SMTP_URL. Without one, the message goes to the log at info level, so a
 * local instance can still sign people in (the code or link is in the log line).
 */
export class Mailer {
  private readonly transport: Transporter | null;
  /** The last messages sent, newest last (kept for inspection in tests and local runs). */
  readonly outbox: MailMessage[] = [];

  constructor(
    smtpUrl: string | undefined,
    private readonly from: string,
    private readonly logger: Logger,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  get configured(): boolean {
    return this.transport !== null;
  }

  async send(msg: MailMessage): Promise<void> {
    this.outbox.push(msg);
    if (this.outbox.length > 100) this.outbox.shift();
    if (!this.transport) {
      currentLogger(this.logger).info({ mail: { to: msg.to, subject: msg.subject, text: msg.text } }, 'mail (no SMTP_URL configured)');
      return;
    }
    await this.transport.sendMail({ from: this.from, to: msg.to, subject: msg.subject, text: msg.text });
  }

  close(): void {
    this.transport?.close();
  }
}
