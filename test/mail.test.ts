import crypto from 'node:crypto';
import net from 'node:net';
import { loadConfig } from '../src/config';
import { ConfigError } from '../src/startup-error';
import { createMailer } from '../src/providers/mail';
import { SandboxMailbox } from '../src/providers/mail/sandbox';
import { SmtpMailer } from '../src/providers/mail/smtp';
import { startTestServer } from './support/harness';
import { SmtpSink } from './support/smtp-sink';

/**
 * Outgoing mail (src/providers/mail): one port, a sandbox mailbox that keeps mail in the database and
 * the log, and SMTP (MAIL_SMTP_URL, MAIL_FROM) for real deployments, which production requires.
 */

const PRODUCTION = {
  NODE_ENV: 'production',
  TESSERA_MASTER_KEY: 'k',
  JWT_SECRET: 'j',
  PUBLIC_BASE_URL: 'https://pay.example.com',
  HOST: '0.0.0.0',
};
const FROM = 'Tessera <no-reply@pay.example.com>';
const uniqueEmail = (label: string) => `${label}-${crypto.randomBytes(4).toString('hex')}@example.com`;
/** The body of a received message (after the headers). */
const bodyOf = (data: string) => data.split('\n\n').slice(1).join('\n\n');

describe('which mailer runs, and what production requires', () => {
  test('SMTP when MAIL_SMTP_URL is set, otherwise the sandbox mailbox', () => {
    const dataSource = {} as never;
    expect(createMailer(loadConfig({}), dataSource, () => undefined).name).toBe('sandbox');
    expect(
      createMailer(loadConfig({ MAIL_SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: FROM }), dataSource, () => undefined)
        .name,
    ).toBe('smtp');
  });

  test('NODE_ENV=production without MAIL_SMTP_URL refuses to start: sign-up codes must reach people', () => {
    expect(() => loadConfig(PRODUCTION)).toThrow(ConfigError);
    expect(() => loadConfig(PRODUCTION)).toThrow(
      /NODE_ENV=production requires MAIL_SMTP_URL to be set \(MAIL_SMTP_URL: sign-up codes must reach people/,
    );
    expect(
      loadConfig({ ...PRODUCTION, MAIL_SMTP_URL: 'smtps://user:pw@smtp.example.com', MAIL_FROM: FROM }),
    ).toMatchObject({
      mailSmtpUrl: 'smtps://user:pw@smtp.example.com',
      mailFrom: FROM,
    });
  });

  test('MAIL_SMTP_URL needs MAIL_FROM and an smtp:// or smtps:// URL; the error never repeats the URL, which may hold a password', () => {
    expect(() => loadConfig({ MAIL_SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrow(
      /MAIL_SMTP_URL is set but MAIL_FROM is not/,
    );
    expect(() => loadConfig({ MAIL_SMTP_URL: 'https://user:secret@mail.example.com', MAIL_FROM: FROM })).toThrow(
      /MAIL_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(() => loadConfig({ MAIL_SMTP_URL: 'https://user:secret@mail.example.com', MAIL_FROM: FROM })).not.toThrow(
      /secret/,
    );
    expect(() => loadConfig({ MAIL_SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'nobody' })).toThrow(
      /MAIL_FROM must be an email address/,
    );
    expect(loadConfig({ MAIL_FROM: 'ops@example.com' }).mailFrom).toBe('ops@example.com');
    expect(loadConfig({})).toMatchObject({ mailSmtpUrl: undefined, mailFrom: 'Tessera <no-reply@tessera.local>' });
  });
});

describe('the SMTP mailer', () => {
  const sink = new SmtpSink();
  beforeAll(async () => sink.start());
  afterAll(async () => sink.close());

  test('sends from MAIL_FROM and logs one line with the recipient and subject, never the text', async () => {
    const lines: string[] = [];
    const mailer = new SmtpMailer(sink.url, FROM, (line) => lines.push(line));
    try {
      await mailer.send({ to: 'ada@example.com', subject: 'Your Tessera sign-up code', text: 'Your code is 424242\n' });
    } finally {
      await mailer.close();
    }
    const received = sink.messages.at(-1)!;
    expect(received).toMatchObject({ from: 'no-reply@pay.example.com', to: ['ada@example.com'] });
    expect(received.data).toMatch(/^From: Tessera <no-reply@pay\.example\.com>$/m);
    expect(received.data).toMatch(/^Subject: Your Tessera sign-up code$/m);
    expect(bodyOf(received.data)).toContain('Your code is 424242');
    expect(lines).toEqual(['Mail sent to ada@example.com: "Your Tessera sign-up code"']);
  });

  test('a server that cannot be reached rejects the send and logs why, without the text', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lines: string[] = [];
    const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, FROM, (line) => lines.push(line));
    try {
      await expect(mailer.send({ to: 'ada@example.com', subject: 'Subject', text: 'code 424242' })).rejects.toThrow();
    } finally {
      await mailer.close();
    }
    expect(lines).toEqual([expect.stringMatching(/^Mail to ada@example\.com \("Subject"\) could not be sent: /)]);
    expect(lines.join('\n')).not.toContain('424242');
  });
});

describe('sign-up mail', () => {
  test('the sandbox mailbox stores every message and logs one line with its recipient, subject and text', async () => {
    const server = await startTestServer();
    try {
      const lines: string[] = [];
      const mailbox = new SandboxMailbox(server.runtime.dataSource, (line) => lines.push(line));
      const to = uniqueEmail('Sandbox').toUpperCase();
      await mailbox.send({ to, subject: 'Hello', text: 'Line one\n\nYour code is 123456\n' });
      await mailbox.send({ to: uniqueEmail('other'), subject: 'Other', text: 'Other text' });
      expect(lines[0]).toBe(`[sandbox mail] to ${to}: "Hello": Line one Your code is 123456`);
      expect(lines).toHaveLength(2);
      const kept = await mailbox.messages({ to: to.toLowerCase() });
      expect(kept).toEqual([
        expect.objectContaining({
          recipient: to.toLowerCase(),
          subject: 'Hello',
          text: 'Line one\n\nYour code is 123456\n',
        }),
      ]);
      expect((await mailbox.messages({ limit: 1 })).map((message) => message.subject)).toEqual(['Other']);
    } finally {
      await server.close();
    }
  });

  test('with MAIL_SMTP_URL set, signUp mails the code over SMTP (the sandbox mailbox keeps nothing) and confirmSignUp takes it', async () => {
    const sink = new SmtpSink();
    await sink.start();
    const server = await startTestServer({ mailSmtpUrl: sink.url, mailFrom: FROM });
    try {
      expect(server.runtime.core.mailer.name).toBe('smtp');
      const email = uniqueEmail('smtp');
      const started = await server.graphql(
        'mutation($input: SignUpInput!) { signUp(input: $input) { pendingSignUp { signUpToken } } }',
        { input: { email, password: 'correct horse battery', name: 'Sam', businessName: 'Sam Co' } },
      );
      const received = sink.messages.find((message) => message.to.includes(email))!;
      expect(received.data).toMatch(/^Subject: Your Tessera sign-up code$/m);
      const code = /\b(\d{6})\b/.exec(bodyOf(received.data))![1];
      expect(await server.mailTo(email)).toEqual([]);

      const confirmed = await server.graphql(
        'mutation($t: String!, $c: String!) { confirmSignUp(input: { signUpToken: $t, code: $c }) { account { user { email } } userErrors { code } } }',
        { t: started.body.data.signUp.pendingSignUp.signUpToken, c: code },
      );
      expect(confirmed.body).toEqual({ data: { confirmSignUp: { account: { user: { email } }, userErrors: [] } } });
    } finally {
      await server.close();
      await sink.close();
    }
  });
});
