import { DataSource } from 'typeorm';
import { MailLog, MailMessage, Mailer } from './port';
import { SandboxMail } from './sandbox-mail.entity';

export const SANDBOX_MAIL_READ_LIMIT = 100;

/**
 * The mailbox of a development machine: nothing leaves it. Every message is stored in
 * `sandbox_mail` and written to the log on one line, text included, so a developer finds a sign-up
 * code in the server's output or with `npm run tessera -- mail`. Never used where MAIL_SMTP_URL is set, and
 * a production start refuses to run without it (src/config.ts).
 */
export class SandboxMailbox implements Mailer {
  readonly name = 'sandbox';

  constructor(
    private readonly dataSource: DataSource,
    private readonly log: MailLog = () => undefined,
  ) {}

  async send({ to, subject, text }: MailMessage): Promise<void> {
    await this.dataSource.getRepository(SandboxMail).insert({ recipient: to.toLowerCase(), subject, text });
    this.log(`[sandbox mail] to ${to}: "${subject}": ${text.replace(/\s+/g, ' ').trim()}`);
  }

  /** Stored messages, newest first; only those to `to` when given. */
  async messages({ to, limit = 10 }: { to?: string; limit?: number } = {}): Promise<SandboxMail[]> {
    return this.dataSource.getRepository(SandboxMail).find({
      where: to ? { recipient: to.trim().toLowerCase() } : {},
      order: { createdAt: 'DESC', id: 'DESC' },
      take: Math.min(Math.max(1, limit), SANDBOX_MAIL_READ_LIMIT),
    });
  }

  async close(): Promise<void> {
    // nothing held open
  }
}
