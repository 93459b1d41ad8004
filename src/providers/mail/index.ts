import { DataSource } from 'typeorm';
import { Config } from '../../config';
import { defineProviderKind } from '../kind';
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

declare module '../registry' {
  interface ProviderChoice {
    /**
     * Mail is chosen once for the server, not per mode: SMTP when MAIL_SMTP_URL is set (a production
     * start requires it, src/config.ts), otherwise the sandbox mailbox.
     */
    mail: { test: Mailer; live: Mailer };
  }
}

/** Outgoing mail: one mailer for both modes. */
export const mailKind = defineProviderKind({
  kind: 'mail',
  missing: 'No mail provider is configured for live mode',
  create: ({ config, dataSource, log }) => {
    const mailer = createMailer(config, dataSource, log);
    return { test: mailer, live: mailer };
  },
});
