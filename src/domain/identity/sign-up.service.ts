import crypto from 'node:crypto';
import { IsNull } from 'typeorm';
import { User } from './identity.entities';
import { BusinessService } from './business.service';
import { NewAccountRequest, SignUpConfirmation } from './identity.commands';
import { PendingSignUp } from './pending-sign-up.entity';
import { RequestContext, inTransaction } from '../shared/context';
import { hashPassword, randomToken, safeEqual, sha256Hex } from '../shared/crypto';
import { DomainError, ErrorCode, validationError } from '../shared/errors';
import { MailMessage, Mailer } from '../../providers/mail/port';

/** How long a sign-up waits for its code. */
export const SIGN_UP_LIFETIME_SECONDS = 15 * 60;
/** Confirmations a sign-up allows; after that many wrong codes it is void. */
export const SIGN_UP_MAX_ATTEMPTS = 5;
/** Expired sign-ups are deleted this long after expiring (housekeeping job). */
const SIGN_UP_RETENTION_SECONDS = 24 * 3600;

export interface SignUpStarted {
  signUpToken: string;
  /** Seconds until the sign-up expires. */
  expiresIn: number;
}

/** The one answer of every confirmation that does not create an account, whatever the reason. */
const signUpRefused = () =>
  validationError(
    { code: ['is wrong or has expired; check the email, or sign up again for a new code'] },
    'The sign-up code is wrong or has expired',
  );

const minutes = Math.round(SIGN_UP_LIFETIME_SECONDS / 60);

const codeMail = (to: string, code: string): MailMessage => ({
  to,
  subject: 'Your Tessera sign-up code',
  text:
    `Your code to finish signing up to Tessera is ${code}.\n\n` +
    `It expires in ${minutes} minutes. If you did not sign up, ignore this email: no account is created without the code.\n`,
});

const alreadyRegisteredMail = (to: string): MailMessage => ({
  to,
  subject: 'Your Tessera sign-up',
  text:
    'Someone, perhaps you, tried to sign up to Tessera with this email address, but you already have an account.\n\n' +
    'Sign in with this address, or reset your password if you have forgotten it. ' +
    'If it was not you, ignore this email: nothing has changed.\n',
});

/** The code, bound to its sign-up: a leaked table alone cannot be searched for codes without the tokens. */
const codeHashOf = (signUpToken: string, code: string) =>
  crypto.createHmac('sha256', signUpToken).update(code).digest('hex');

/**
 * Dashboard sign-up with proof of the address. `start` answers the same, after the same work,
 * whether or not the email has an account, and emails the address: a 6-digit code when it is new,
 * a notice to sign in when it is not. `confirm` with the token and the code creates the account;
 * every refusal (wrong code, expired, unknown or voided token, an address that has an account) is
 * the same error. So sign-up never tells anyone but the owner of an address whether it is registered.
 */
export class SignUpService {
  constructor(
    private readonly businesses: BusinessService,
    private readonly mailer: Mailer,
  ) {}

  async start(base: RequestContext, data: NewAccountRequest): Promise<SignUpStarted> {
    const passwordHash = await hashPassword(data.password);
    const signUpToken = `su_${randomToken(32)}`;
    const tokenHash = sha256Hex(signUpToken);
    const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
    const registered = (await base.repo(User).count({ where: { email: data.email } })) > 0;
    await base.repo(PendingSignUp).insert({
      tokenHash,
      email: data.email,
      passwordHash,
      name: data.name,
      businessName: data.businessName,
      codeHash: registered ? null : codeHashOf(signUpToken, code),
      expiresAt: new Date(Date.now() + SIGN_UP_LIFETIME_SECONDS * 1000),
    });
    try {
      // Outside any transaction (a provider call); both cases send one message.
      await this.mailer.send(registered ? alreadyRegisteredMail(data.email) : codeMail(data.email, code));
    } catch {
      await base.repo(PendingSignUp).delete({ tokenHash });
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'The email could not be sent; try again in a moment');
    }
    return { signUpToken, expiresIn: SIGN_UP_LIFETIME_SECONDS };
  }

  /** The account of a sign-up whose emailed code is right: the user, their business, its test credentials and a dashboard token. */
  async confirm(base: RequestContext, confirmation: SignUpConfirmation) {
    const { signUpToken } = confirmation;
    const code = confirmation.code.trim();
    // The attempt is counted in its own statement, committed before the code is judged, so a wrong
    // code counts even though its request fails; concurrent guesses each count (the row lock orders them).
    const result: unknown[] = await base.em.query(
      `UPDATE pending_sign_ups SET attempts = attempts + 1
       WHERE token_hash = $1 AND confirmed_at IS NULL AND expires_at > now() AND attempts < $2
       RETURNING id, code_hash`,
      [sha256Hex(signUpToken), SIGN_UP_MAX_ATTEMPTS],
    );
    const [pending] = (Array.isArray(result[0]) ? result[0] : result) as Array<{
      id: string;
      code_hash: string | null;
    }>;
    const codeIsRight = pending?.code_hash ? safeEqual(codeHashOf(signUpToken, code), pending.code_hash) : false;
    if (!pending || !codeIsRight) throw signUpRefused();
    return inTransaction(base, async (tx) => {
      // Locked and re-read, so two confirmations of one sign-up create one account.
      const row = await tx
        .repo(PendingSignUp)
        .findOne({ where: { id: pending.id, confirmedAt: IsNull() }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw signUpRefused();
      await tx.repo(PendingSignUp).update({ id: row.id }, { confirmedAt: new Date() });
      // Two sign-ups of one new address both got a code; the unique email lets only the first confirmation through.
      return this.businesses.openAccount(tx, {
        email: row.email,
        name: row.name,
        businessName: row.businessName,
        passwordHash: row.passwordHash,
      });
    }).catch((error: unknown) => {
      throw error instanceof DomainError && error.code === ErrorCode.CONFLICT ? signUpRefused() : error;
    });
  }

  /** Deletes sign-ups a day after they expired (hourly housekeeping). */
  async purgeExpired(system: RequestContext): Promise<number> {
    const result = await system
      .repo(PendingSignUp)
      .createQueryBuilder()
      .delete()
      .where('expires_at < now() - make_interval(secs => :retention)', { retention: SIGN_UP_RETENTION_SECONDS })
      .execute();
    return result.affected ?? 0;
  }
}
