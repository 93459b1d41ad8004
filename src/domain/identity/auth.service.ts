import { ApiCredential, Business, Membership, User } from './identity.entities';
import { BusinessSettings } from '../shared/business-settings.entity';
import { Mode } from '../shared/modes';
import { hashApiKey, isPublishableKey, modeOfKey, modeOfPublishableKey } from './credentials';
import { authenticateOperatorToken, isOperatorToken } from './operator-token.service';
import { PresentedCredentials, SignIn, TokenExchange } from './identity.commands';
import { TokenClaims, TokenSigner } from './tokens';
import { RequestContext } from '../shared/context';
import { forbidden, notFound, unauthorized, validationError } from '../shared/errors';
import { SecretBox, hashPassword, safeEqual, verifyPassword } from '../shared/crypto';
import { isUuid } from '../shared/ids';
import { EntityRows } from '../shared/rows';

export interface TokenResponse {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  businessId: string;
  businessName: string;
}

/** Per-account sign-in lockout: `maxFailures` failed sign-ins within `windowSeconds` lock the account for `lockoutSeconds`. */
export interface SignInLockout {
  maxFailures: number;
  windowSeconds: number;
  lockoutSeconds: number;
}

/** The account's current failure window is still open. */
const WITHIN = `coalesce(failed_sign_ins_since > now() - make_interval(secs => $3), false)`;

/** A publishable key reaching anything but the card-token route. */
export const publishableKeyRefused = () =>
  forbidden(
    'A publishable key (pk_…) can only create card tokens (POST /api/v1/tokens); use the secret API key or a token here',
  );

/**
 * Who is calling: API keys, API tokens, publishable keys and dashboard tokens turned into a
 * request context; token exchange and dashboard sign-in.
 */
export class AuthService {
  constructor(
    private readonly tokens: TokenSigner,
    private readonly secretBox: SecretBox,
    private readonly lockout: SignInLockout,
  ) {}

  /**
   * Resolves the caller of a request into a context. API keys and `api` tokens fix the business
   * and mode; `dashboard` tokens take the business from `X-Service-Business-Id` (or the user's
   * only business) and the mode from `X-Service-Mode` (test by default).
   */
  async authenticate(base: RequestContext, presented: PresentedCredentials): Promise<RequestContext> {
    if ([presented.apiKey, presented.bearerToken].some((value) => value && isPublishableKey(value)))
      throw publishableKeyRefused();
    if (presented.apiKey) return this.authenticateApiKey(base, presented.apiKey, presented.businessIdHeader);
    if (presented.bearerToken) {
      if (isOperatorToken(presented.bearerToken)) return authenticateOperatorToken(base, presented.bearerToken);
      const claims = this.tokens.verify(presented.bearerToken);
      if (!claims) throw unauthorized('Invalid or expired token');
      return this.authenticateClaims(base, claims, presented);
    }
    return base;
  }

  /** When the bearer token presented expires (null without one): a socket opened with it closes then. */
  credentialExpiresAt(presented: PresentedCredentials): Date | null {
    return !presented.apiKey && presented.bearerToken ? this.tokens.expiresAt(presented.bearerToken) : null;
  }

  /**
   * A publishable key (`x-publishable-key`, or `Authorization: Bearer pk_…` on the token route):
   * its context acts for the key's business and mode but may only create card tokens.
   */
  async authenticatePublishableKey(base: RequestContext, publishableKey: string): Promise<RequestContext> {
    const mode = modeOfPublishableKey(publishableKey);
    const credential = mode ? await base.repo(ApiCredential).findOne({ where: { publishableKey } }) : null;
    if (!credential || credential.livemode !== (mode === Mode.LIVE)) throw unauthorized('Invalid publishable key');
    return new RequestContext(
      base.dataSource,
      { kind: 'publishable', credentialId: credential.id },
      credential.businessId,
      credential.livemode ? Mode.LIVE : Mode.TEST,
      base.origin,
    );
  }

  /** `POST /business/auth/token`: 401 when the key or the secret is wrong. */
  async exchangeToken(base: RequestContext, exchange: TokenExchange): Promise<TokenResponse> {
    const mode = modeOfKey(exchange.apiKey);
    const credential = mode
      ? await base.repo(ApiCredential).findOne({ where: { keyHash: hashApiKey(exchange.apiKey) } })
      : null;
    const storedSecret = credential ? this.secretBox.open(credential.secretCiphertext) : 'no-credential';
    const secretMatches = safeEqual(exchange.apiSecret, storedSecret);
    if (!credential || !secretMatches) throw unauthorized('Invalid apiKey or apiSecret');
    const business = await base.repo(Business).findOneOrFail({ where: { id: credential.businessId } });
    await base.repo(ApiCredential).update({ id: credential.id }, { lastUsedAt: new Date() });
    const claims: TokenClaims = {
      kind: 'api',
      sub: credential.id,
      bid: business.id,
      mode: mode!,
      kv: credential.keyVersion,
    };
    return {
      accessToken: this.tokens.sign(claims),
      tokenType: 'Bearer',
      expiresIn: this.tokens.ttlSeconds,
      businessId: business.id,
      businessName: business.name,
    };
  }

  /**
   * A dashboard JWT for the right email and password. Every refusal is the same generic
   * UNAUTHENTICATED, after the same password hashing work: an unknown email, a wrong password, and
   * an account locked out (SignInLockout) even when the password is right. A success resets the
   * account's failure count.
   */
  async signIn(base: RequestContext, signIn: SignIn) {
    const email = typeof signIn.email === 'string' ? signIn.email.trim().toLowerCase() : '';
    const user = email ? await base.repo(User).findOne({ where: { email } }) : null;
    const valid = user
      ? await verifyPassword(String(signIn.password ?? ''), user.passwordHash)
      : await hashPassword('timing-equaliser').then(() => false);
    const refused = () => unauthorized('Invalid email or password');
    if (!user) throw refused();
    if (user.signInLockedUntil && user.signInLockedUntil.getTime() > Date.now()) throw refused();
    if (!valid) {
      await this.countFailedSignIn(base, user.id);
      throw refused();
    }
    if (user.failedSignIns > 0 || user.signInLockedUntil) {
      await base
        .repo(User)
        .update({ id: user.id }, { failedSignIns: 0, failedSignInsSince: null, signInLockedUntil: null });
    }
    return { user, token: this.dashboardToken(user.id), expiresIn: this.tokens.ttlSeconds };
  }

  /** A dashboard JWT for a user who just proved who they are (sign-in, a confirmed sign-up, the operator). */
  dashboardToken(userId: string): string {
    return this.tokens.sign({ kind: 'dashboard', sub: userId });
  }

  /** The context a user's new session will have, without an active business: it reads their own memberships and businesses. */
  signedInContext(base: RequestContext, userId: string): RequestContext {
    return new RequestContext(base.dataSource, { kind: 'dashboard', userId, role: null }, null, Mode.TEST, base.origin);
  }

  async currentUser(ctx: RequestContext): Promise<User> {
    if (ctx.actor.kind !== 'dashboard') throw unauthorized('Sign in to the dashboard for this operation');
    return ctx.repo(User).findOneOrFail({ where: { id: ctx.actor.userId } });
  }

  /** One more failure in the account's window (a new window once the last has passed); the last allowed one locks the account. */
  private async countFailedSignIn(base: RequestContext, userId: string): Promise<void> {
    const { maxFailures, windowSeconds, lockoutSeconds } = this.lockout;
    await base.em.query(
      // One statement on the row itself, so concurrent failures each count (the row lock orders them).
      `UPDATE users SET
         failed_sign_ins = CASE WHEN ${WITHIN} THEN failed_sign_ins + 1 ELSE 1 END,
         failed_sign_ins_since = CASE WHEN ${WITHIN} THEN failed_sign_ins_since ELSE now() END,
         sign_in_locked_until = CASE WHEN (CASE WHEN ${WITHIN} THEN failed_sign_ins + 1 ELSE 1 END) >= $2
                                     THEN now() + make_interval(secs => $4) ELSE sign_in_locked_until END
       WHERE id = $1`,
      [userId, maxFailures, windowSeconds, lockoutSeconds],
    );
  }

  /**
   * The key's credential, looked up on every request (a regenerated or revoked key is refused at
   * once, whichever process serves it), with the business's settings of the key's mode in the
   * same statement: the next thing most API requests read (a charge checks server-to-server
   * charging), without a second round trip.
   */
  private async authenticateApiKey(base: RequestContext, apiKey: string, businessIdHeader?: string | null) {
    const mode = modeOfKey(apiKey);
    const found = mode ? await this.credentialWithSettings(base, hashApiKey(apiKey)) : null;
    const credential = found?.credential;
    if (!credential || credential.livemode !== (mode === Mode.LIVE)) throw unauthorized('Invalid API key');
    this.assertBusinessHeader(credential.businessId, businessIdHeader);
    return new RequestContext(
      base.dataSource,
      { kind: 'api', credentialId: credential.id },
      credential.businessId,
      credential.livemode ? Mode.LIVE : Mode.TEST,
      base.origin,
      null,
      null,
      null,
      found.settings,
    );
  }

  /**
   * The API key's credential and its mode's business settings, in one statement, read on every
   * request (no cache: a regenerated key is refused at once on every process). Hand-written and
   * hydrated by EntityRows: TypeORM's select builder and result transformer were a visible share
   * of every API request's CPU.
   */
  private async credentialWithSettings(
    base: RequestContext,
    keyHash: string,
  ): Promise<{ credential: ApiCredential; settings: BusinessSettings | null } | null> {
    const credentials = EntityRows.of(base, ApiCredential);
    const settings = EntityRows.of(base, BusinessSettings);
    const [row]: Array<Record<string, unknown>> = await base.em.query(
      `SELECT ${credentials.selectList('credential')}, ${settings.selectList('settings')}
         FROM "${base.repo(ApiCredential).metadata.tableName}" "credential"
         LEFT JOIN "${base.repo(BusinessSettings).metadata.tableName}" "settings"
           ON "settings"."business_id" = "credential"."business_id" AND "settings"."livemode" = "credential"."livemode"
        WHERE "credential"."key_hash" = $1`,
      [keyHash],
    );
    if (!row) return null;
    const credential = credentials.hydrate(row, 'credential');
    const joined = settings.hydrate(row, 'settings');
    return { credential, settings: joined.businessId ? joined : null };
  }

  private async authenticateClaims(base: RequestContext, claims: TokenClaims, presented: PresentedCredentials) {
    if (claims.kind === 'api') {
      const credential = await base.repo(ApiCredential).findOne({ where: { id: claims.sub } });
      const mode = credential?.livemode ? Mode.LIVE : Mode.TEST;
      if (
        !credential ||
        credential.keyVersion !== claims.kv ||
        credential.businessId !== claims.bid ||
        mode !== claims.mode
      ) {
        throw unauthorized('Invalid or expired token');
      }
      this.assertBusinessHeader(credential.businessId, presented.businessIdHeader);
      return new RequestContext(
        base.dataSource,
        { kind: 'api', credentialId: credential.id },
        credential.businessId,
        mode,
        base.origin,
      );
    }
    const user = await base.repo(User).findOne({ where: { id: claims.sub } });
    if (!user) throw unauthorized('Invalid or expired token');
    const mode = this.parseMode(presented.modeHeader);
    const membership = await this.activeMembership(base, user.id, presented.businessIdHeader);
    return new RequestContext(
      base.dataSource,
      { kind: 'dashboard', userId: user.id, role: membership?.role ?? null },
      membership?.businessId ?? null,
      mode,
      base.origin,
    );
  }

  private async activeMembership(ctx: RequestContext, userId: string, businessIdHeader?: string | null) {
    if (businessIdHeader) {
      const membership = isUuid(businessIdHeader)
        ? await ctx.repo(Membership).findOne({ where: { userId, businessId: businessIdHeader } })
        : null;
      if (!membership) throw notFound('Business');
      return membership;
    }
    // Without the header: the user's default business, the first they joined (their own, for
    // anyone who signed up), so that being invited elsewhere never takes it away.
    return ctx.repo(Membership).findOne({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  private assertBusinessHeader(businessId: string, header?: string | null) {
    if (header && header !== businessId) throw notFound('Business');
  }

  private parseMode(header?: string | null): Mode {
    if (!header || header === 'test') return Mode.TEST;
    if (header === 'live') return Mode.LIVE;
    throw validationError({ 'X-Service-Mode': ['must be "test" or "live"'] });
  }
}
