/** One plain-text email. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends email: sign-up codes and notices today. Which one runs is decided once at start
 * (`createMailer`): SMTP when MAIL_SMTP_URL is set, otherwise the sandbox mailbox.
 */
export interface Mailer {
  readonly name: string;
  /** Resolves once the message is handed over (stored, or accepted by the SMTP server); rejects otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Where a mailer writes its one line per message (the server's log). */
export type MailLog = (line: string) => void;
