import { DataSource } from 'typeorm';
import { Config } from '../../config';
import { MailLog, Mailer } from './port';
import { SandboxMailbox } from './sandbox';
import { SmtpMailer } from './smtp';

/** SMTP when MAIL_SMTP_URL is set, otherwise the sandbox mailbox (which production refuses; see loadConfig). */
export function createMailer(
  config: Pick<Config, 'mailSmtpUrl' | 'mailFrom'>,
  dataSource: DataSource,
  log: MailLog,
): Mailer {
  return config.mailSmtpUrl
    ? new SmtpMailer(config.mailSmtpUrl, config.mailFrom, log)
    : new SandboxMailbox(dataSource, log);
}
