import nodemailer, { Transporter } from 'nodemailer';
import { MailLog, MailMessage, Mailer } from './port';

/**
 * Real email through an SMTP server (MAIL_SMTP_URL, e.g. `smtps://user:password@smtp.example.com`),
 * from MAIL_FROM. The log gets the recipient and subject of each message, never its text: a sign-up
 * code must not sit in production logs.
 */
export class SmtpMailer implements Mailer {
  readonly name = 'smtp';
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly log: MailLog = () => undefined,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send({ to, subject, text }: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to, subject, text });
    } catch (error) {
      this.log(`Mail to ${to} ("${subject}") could not be sent: ${(error as Error).message}`);
      throw error;
    }
    this.log(`Mail sent to ${to}: "${subject}"`);
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
