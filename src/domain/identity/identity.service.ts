import { In } from 'typeorm';
import { z } from 'zod';
import { ApiCredential, Business, BusinessSettings, Membership, Mode, Role, User } from './identity.entities';
import { hashApiKey, hintOf, isPublishableKey, modeOfKey, modeOfPublishableKey, newApiKey, newApiSecret, newPublishableKey } from './credentials';
import { TokenClaims, TokenSigner } from './tokens';
import { ADMIN_ROLES, ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, forbidden, notFound, unauthorized, validationError } from '../shared/errors';
import { SecretBox, hashPassword, safeEqual, verifyPassword } from '../shared/crypto';
import { absoluteUrlSchema, emailSchema, isUuid, parseInput, required } from '../../wire/validation';
import { WebhookTargetPolicy } from '../webhooks/url-policy';
import { assertMayGrant } from './team-invitation.service';
import { AccessRevocation, TesseraPubSub, Topic } from '../events/pubsub';

export interface IssuedCredentials {
  mode: Mode;
  apiKey: string;
  apiSecret: string;
  /** Browser-safe; creates card tokens only. */
  publishableKey: string;
}

export interface TokenResponse {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  businessId: string;
  businessName: string;
}

/** The account's current failure window is still open. */
const WITHIN = `coalesce(failed_sign_ins_since > now() - make_interval(secs => $3), false)`;

/** Per-account sign-in lockout: `maxFailures` failed sign-ins within `windowSeconds` lock the account for `lockoutSeconds`. */
export interface SignInLockout {
  maxFailures: number;
  windowSeconds: number;
  lockoutSeconds: number;
}

export interface NewAccount {
  /** Lower-cased. */
  email: string;
  name: string;
  businessName: string;
  passwordHash: string;
}

export interface AuthInput {
  apiKey?: string | null;
  bearerToken?: string | null;
  businessIdHeader?: string | null;
  modeHeader?: string | null;
}

/** A new dashboard account and its first business: sign-up (SignUpService) and the operator's `business create`. */
export const newAccountSchema = z.object({
  email: emailSchema,
  password: z.string().min(10, 'must be at least 10 characters').max(200),
  name: z.string().trim().min(1, 'must not be empty').max(200),
  businessName: z.string().trim().min(1, 'must not be empty').max(200),
});

const businessCreateSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  email: emailSchema,
});

const tokenExchangeSchema = z.object({
  apiKey: z.string({ error: required() }).min(1, 'must not be empty'),
  apiSecret: z.string({ error: required() }).min(1, 'must not be empty'),
});

const webhookConfigSchema = z.object({
  webhookUrl: z.union([absoluteUrlSchema, z.null()], { error: required('an absolute http(s) URL, or null to remove it') }),
});

const settingsSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  webhookUrl: absoluteUrlSchema.nullable().optional(),
});

const roleSchema = z.object({ role: z.enum(Role) });

/** What an operator may switch on a business (`tessera business update`); at least one of them. */
const operatorUpdateSchema = z.object({
  treasuryEnabled: z.boolean({ error: 'must be true or false' }).optional(),
  /** Per mode (the operator context's mode), like the fee schedule below. */
  serverToServerCharging: z.boolean({ error: 'must be true or false' }).optional(),
  cardFeeBps: z.number().int().min(0).max(10_000, 'must be at most 10000 (100%)').optional(),
  cardFeeFixedMinor: z.number().int().min(0).max(1_000_000_000, 'is too large').optional(),
  disputeFeeMinor: z.number().int().min(0).max(1_000_000_000, 'is too large').optional(),
}, { error: 'must be an object' }).refine((data) => Object.values(data).some((value) => value !== undefined), {
  message: 'names no setting to change',
  path: ['_'],
});


/** PostgreSQL's unique_violation: a concurrent request inserted the same row first. */
const isUniqueViolation = (error: unknown) =>
  (error as { driverError?: { code?: string } } | null)?.driverError?.code === '23505';

/** Turns a lost insert race into the CONFLICT the losing request would have got a moment later. */
const conflictOnUniqueViolation = (conflict: () => DomainError) => (error: unknown): never => {
  throw isUniqueViolation(error) ? conflict() : error;
};

const emailTaken = () =>
  new DomainError(ErrorCode.CONFLICT, 'An account with this email already exists', { email: ['is already registered'] });
/** A publishable key reaching anything but the card-token route. */
export const publishableKeyRefused = () =>
  forbidden('A publishable key (pk_…) can only create card tokens (POST /api/v1/tokens); use the secret API key or a token here');

/**
 * Users, businesses, memberships and API credentials: everything about who is calling and
 * what they may touch.
 */
export class IdentityService {
  constructor(
    private readonly tokens: TokenSigner,
    private readonly secretBox: SecretBox,
    private readonly pubSub: TesseraPubSub,
    /** Provisions what a business needs in a mode (its default wallet) once that mode is enabled. */
    private readonly onModeEnabled: (ctx: RequestContext) => Promise<void>,
    /** Judges the webhookUrl like every webhook target. */
    private readonly webhookTargets: WebhookTargetPolicy,
    private readonly lockout: SignInLockout,
  ) {}

  // ---------------------------------------------------------------- authentication

  /**
   * Resolves the caller of a request into a context. API keys and `api` tokens fix the business
   * and mode; `dashboard` tokens take the business from `X-Service-Business-Id` (or the user's
   * only business) and the mode from `X-Service-Mode` (test by default).
   */
  async authenticate(base: RequestContext, input: AuthInput): Promise<RequestContext> {
    if ([input.apiKey, input.bearerToken].some((value) => value && isPublishableKey(value))) throw publishableKeyRefused();
    if (input.apiKey) return this.authenticateApiKey(base, input.apiKey, input.businessIdHeader);
    if (input.bearerToken) {
      const claims = this.tokens.verify(input.bearerToken);
      if (!claims) throw unauthorized('Invalid or expired token');
      return this.authenticateClaims(base, claims, input);
    }
    return base;
  }

  /** When the bearer token of `input` expires (null without one): a socket opened with it closes then. */
  credentialExpiresAt(input: AuthInput): Date | null {
    return !input.apiKey && input.bearerToken ? this.tokens.expiresAt(input.bearerToken) : null;
  }

  /**
   * A publishable key (`x-publishable-key`, or `Authorization: Bearer pk_…` on the token route):
   * its context acts for the key's business and mode but may only create card tokens.
   */
  async authenticatePublishableKey(base: RequestContext, publishableKey: string): Promise<RequestContext> {
    const mode = modeOfPublishableKey(publishableKey);
    const credential = mode ? await base.repo(ApiCredential).findOne({ where: { publishableKey } }) : null;
    if (!credential || credential.livemode !== (mode === Mode.LIVE)) throw unauthorized('Invalid publishable key');
    return new RequestContext(base.dataSource, { kind: 'publishable', credentialId: credential.id }, credential.businessId,
      credential.livemode ? Mode.LIVE : Mode.TEST, base.origin);
  }

  private async authenticateApiKey(base: RequestContext, apiKey: string, businessIdHeader?: string | null) {
    const mode = modeOfKey(apiKey);
    const credential = mode
      ? await base.repo(ApiCredential).findOne({ where: { keyHash: hashApiKey(apiKey) } })
      : null;
    if (!credential || credential.livemode !== (mode === Mode.LIVE)) throw unauthorized('Invalid API key');
    this.assertBusinessHeader(credential.businessId, businessIdHeader);
    return new RequestContext(base.dataSource, { kind: 'api', credentialId: credential.id }, credential.businessId,
      credential.livemode ? Mode.LIVE : Mode.TEST, base.origin);
  }

  private async authenticateClaims(base: RequestContext, claims: TokenClaims, input: AuthInput) {
    if (claims.kind === 'api') {
      const credential = await base.repo(ApiCredential).findOne({ where: { id: claims.sub } });
      const mode = credential?.livemode ? Mode.LIVE : Mode.TEST;
      if (!credential || credential.keyVersion !== claims.kv || credential.businessId !== claims.bid || mode !== claims.mode) {
        throw unauthorized('Invalid or expired token');
      }
      this.assertBusinessHeader(credential.businessId, input.businessIdHeader);
      return new RequestContext(base.dataSource, { kind: 'api', credentialId: credential.id }, credential.businessId,
        mode, base.origin);
    }
    const user = await base.repo(User).findOne({ where: { id: claims.sub } });
    if (!user) throw unauthorized('Invalid or expired token');
    const mode = this.parseMode(input.modeHeader);
    const membership = await this.activeMembership(base, user.id, input.businessIdHeader);
    return new RequestContext(base.dataSource, { kind: 'dashboard', userId: user.id, role: membership?.role ?? null },
      membership?.businessId ?? null, mode, base.origin);
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

  /** `POST /business/auth/token`: 400 when either field is missing, 401 when either is wrong. */
  async exchangeToken(base: RequestContext, input: unknown): Promise<TokenResponse> {
    const { apiKey, apiSecret } = parseInput(tokenExchangeSchema, input ?? {});
    const mode = modeOfKey(apiKey);
    const credential = mode
      ? await base.repo(ApiCredential).findOne({ where: { keyHash: hashApiKey(apiKey) } })
      : null;
    const storedSecret = credential ? this.secretBox.open(credential.secretCiphertext) : 'no-credential';
    const secretMatches = safeEqual(apiSecret, storedSecret);
    if (!credential || !secretMatches) throw unauthorized('Invalid apiKey or apiSecret');
    const business = await base.repo(Business).findOneOrFail({ where: { id: credential.businessId } });
    await base.repo(ApiCredential).update({ id: credential.id }, { lastUsedAt: new Date() });
    const claims: TokenClaims = { kind: 'api', sub: credential.id, bid: business.id, mode: mode!, kv: credential.keyVersion };
    return {
      accessToken: this.tokens.sign(claims),
      tokenType: 'Bearer',
      expiresIn: this.tokens.ttlSeconds,
      businessId: business.id,
      businessName: business.name,
    };
  }

  /** The secret of the business's credential in the context's mode (it also signs webhooks). */
  async apiSecretOf(ctx: RequestContext): Promise<string | null> {
    const credential = await ctx.repo(ApiCredential).findOne({
      where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode },
    });
    return credential ? this.secretBox.open(credential.secretCiphertext) : null;
  }

  // ---------------------------------------------------------------- users

  /**
   * Creates a user, their business (with them as OWNER), its test credentials and wallet, and signs
   * the user in. CONFLICT when the email has an account, also when a concurrent request created it
   * first (the unique email). Callers have proven the address (SignUpService) or are the operator.
   */
  async openAccount(ctx: RequestContext, account: NewAccount) {
    return inTransaction(ctx, async (tx) => {
      const existing = await tx.repo(User).findOne({ where: { email: account.email } });
      if (existing) throw emailTaken();
      const user = await tx.repo(User).save(tx.repo(User).create({ email: account.email, name: account.name, passwordHash: account.passwordHash }));
      const { business, credentials } = await this.createBusinessWithOwner(tx, { name: account.businessName, email: account.email }, user.id);
      return { user, business, credentials, token: this.tokens.sign({ kind: 'dashboard', sub: user.id }) };
    }).catch(conflictOnUniqueViolation(emailTaken));
  }

  /**
   * A dashboard JWT for the right email and password. Every refusal is the same generic
   * UNAUTHENTICATED, after the same password hashing work: an unknown email, a wrong password, and
   * an account locked out (SignInLockout) even when the password is right. A success resets the
   * account's failure count.
   */
  async signIn(base: RequestContext, input: { email: string; password: string }) {
    const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
    const user = email ? await base.repo(User).findOne({ where: { email } }) : null;
    const valid = user ? await verifyPassword(String(input.password ?? ''), user.passwordHash) : await hashPassword('timing-equaliser').then(() => false);
    const refused = () => unauthorized('Invalid email or password');
    if (!user) throw refused();
    if (user.signInLockedUntil && user.signInLockedUntil.getTime() > Date.now()) throw refused();
    if (!valid) {
      await this.countFailedSignIn(base, user.id);
      throw refused();
    }
    if (user.failedSignIns > 0 || user.signInLockedUntil) {
      await base.repo(User).update({ id: user.id }, { failedSignIns: 0, failedSignInsSince: null, signInLockedUntil: null });
    }
    return { user, token: this.tokens.sign({ kind: 'dashboard', sub: user.id }), expiresIn: this.tokens.ttlSeconds };
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

  async currentUser(ctx: RequestContext): Promise<User> {
    if (ctx.actor.kind !== 'dashboard') throw unauthorized('Sign in to the dashboard for this operation');
    return ctx.repo(User).findOneOrFail({ where: { id: ctx.actor.userId } });
  }

  // Batch reads for the dashboard's DataLoaders. Callers only pass ids they reached through the
  // caller's own memberships, so these do not re-check tenancy.
  async usersByIds(ctx: RequestContext, ids: string[]): Promise<User[]> {
    return ctx.repo(User).find({ where: { id: In(ids) } });
  }

  async businessesByIds(ctx: RequestContext, ids: string[]): Promise<Business[]> {
    return ctx.repo(Business).find({ where: { id: In(ids) } });
  }

  /** Every membership of the users; the GraphQL face narrows other users' lists to the business it reached them through. */
  async membershipsOfUsers(ctx: RequestContext, userIds: string[]): Promise<Membership[]> {
    return ctx.repo(Membership).find({ where: { userId: In(userIds) }, order: { createdAt: 'ASC' } });
  }

  // ---------------------------------------------------------------- businesses

  /**
   * Operator entry (CLI, first start): a business, its owner account and its test credentials, at
   * once and without an email round trip; an email that has an account is CONFLICT.
   */
  async createBusinessWithOwnerAccount(base: RequestContext, input: { name: string; email: string; password: string }) {
    const data = parseInput(newAccountSchema, { email: input.email, password: input.password, name: input.name, businessName: input.name });
    return this.openAccount(base, { email: data.email, name: data.name, businessName: data.businessName, passwordHash: await hashPassword(data.password) });
  }

  private async createBusinessWithOwner(tx: RequestContext, input: unknown, ownerUserId: string) {
    const data = parseInput(businessCreateSchema, input);
    const business = await tx.repo(Business).save(tx.repo(Business).create({ name: data.name, email: data.email }));
    await tx.repo(BusinessSettings).save([
      tx.repo(BusinessSettings).create({ businessId: business.id, livemode: false, webhookUrl: null }),
      tx.repo(BusinessSettings).create({ businessId: business.id, livemode: true, webhookUrl: null }),
    ]);
    await tx.repo(Membership).save(tx.repo(Membership).create({ userId: ownerUserId, businessId: business.id, role: Role.OWNER }));
    const credentials = await this.issueCredentials(tx, business.id, Mode.TEST);
    await this.onModeEnabled(tx.forBusiness(business.id, Mode.TEST));
    return { business, credentials };
  }

  /**
   * Operator entry (`tessera business update`): switches products of the context's business, such as
   * the treasury product that makes it a treasury partner. Never reachable with a credential.
   */
  async updateBusinessAsOperator(ctx: RequestContext, input: unknown): Promise<Business> {
    ctx.requireOperator();
    const data = parseInput(operatorUpdateSchema, input ?? {});
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      const business = isUuid(businessId)
        ? await tx.repo(Business).findOne({ where: { id: businessId }, lock: { mode: 'pessimistic_write' } })
        : null;
      if (!business) throw notFound('Business');
      if (data.serverToServerCharging !== undefined) await this.writeServerToServerCharging(tx, data.serverToServerCharging);
      const fees = {
        ...(data.cardFeeBps !== undefined ? { cardFeeBps: data.cardFeeBps } : {}),
        ...(data.cardFeeFixedMinor !== undefined ? { cardFeeFixedMinor: BigInt(data.cardFeeFixedMinor) } : {}),
        ...(data.disputeFeeMinor !== undefined ? { disputeFeeMinor: BigInt(data.disputeFeeMinor) } : {}),
      };
      if (Object.keys(fees).length > 0) await tx.repo(BusinessSettings).update({ businessId: business.id, livemode: tx.livemode }, fees);
      if (data.treasuryEnabled !== undefined) business.treasuryEnabled = data.treasuryEnabled;
      return tx.repo(Business).save(business);
    });
  }

  /**
   * Server-to-server card charging of the context's mode. Operators switch it in either mode (the
   * CLI); a dashboard OWNER may switch it in test mode only.
   */
  async setServerToServerCharging(ctx: RequestContext, enabled: boolean): Promise<BusinessSettings> {
    if (ctx.actor.kind !== 'system') {
      ctx.requireDashboardRole(Role.OWNER);
      if (ctx.livemode) throw forbidden('Only an operator can switch server-to-server charging in live mode');
    }
    return inTransaction(ctx, (tx) => this.writeServerToServerCharging(tx, enabled));
  }

  private async writeServerToServerCharging(tx: RequestContext, enabled: boolean): Promise<BusinessSettings> {
    const settings = await tx.repo(BusinessSettings).findOneOrFail({ where: { businessId: tx.requireBusiness(), livemode: tx.livemode } });
    settings.serverToServerCharging = enabled;
    return tx.repo(BusinessSettings).save(settings);
  }

  async business(ctx: RequestContext): Promise<Business> {
    const business = await ctx.repo(Business).findOne({ where: { id: ctx.requireBusiness() } });
    if (!business) throw notFound('Business');
    return business;
  }

  async settings(ctx: RequestContext): Promise<BusinessSettings> {
    return ctx.repo(BusinessSettings).findOneOrFail({ where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
  }

  /**
   * Updates the business name and the webhook URL of the context's mode. The webhook URL must pass
   * the target policy of the mode (live: https and public; test: private only where allowed).
   */
  async updateSettings(ctx: RequestContext, input: unknown) {
    ctx.requireRole(...WRITE_ROLES);
    const data = parseInput(settingsSchema, input);
    const refusal = data.webhookUrl ? await this.webhookTargets.refusal(data.webhookUrl, ctx.livemode) : null;
    if (refusal) throw validationError({ webhookUrl: [refusal] });
    return inTransaction(ctx, async (tx) => {
      if (data.name !== undefined) {
        tx.requireRole(...ADMIN_ROLES);
        await tx.repo(Business).update({ id: tx.requireBusiness() }, { name: data.name });
      }
      if (data.webhookUrl !== undefined) {
        await tx.repo(BusinessSettings).update({ businessId: tx.requireBusiness(), livemode: tx.livemode }, { webhookUrl: data.webhookUrl });
      }
      return { business: await this.business(tx), settings: await this.settings(tx) };
    });
  }

  /** `PUT /business/config`: sets (or, with null, removes) the webhook URL of the context's mode. */
  async configureWebhook(ctx: RequestContext, input: unknown) {
    const { webhookUrl } = parseInput(webhookConfigSchema, input ?? {});
    return this.updateSettings(ctx, { webhookUrl });
  }

  // ---------------------------------------------------------------- credentials

  /** Hints of the business's credentials: both modes for dashboard users, its own mode for an API credential. */
  async credentials(ctx: RequestContext): Promise<ApiCredential[]> {
    ctx.requireRole(...ALL_ROLES);
    const where = { businessId: ctx.requireBusiness(), ...(ctx.actor.kind === 'api' ? { livemode: ctx.livemode } : {}) };
    return ctx.repo(ApiCredential).find({ where, order: { livemode: 'ASC' } });
  }

  /** Issues the business's first live credential (OWNER, signed in to the dashboard). Shown once. */
  async createLiveCredentials(ctx: RequestContext): Promise<IssuedCredentials> {
    ctx.requireDashboardRole(Role.OWNER);
    const alreadyIssued = () => new DomainError(ErrorCode.CONFLICT, 'Live credentials already exist; regenerate the key instead');
    return inTransaction(ctx, async (tx) => {
      const existing = await tx.repo(ApiCredential).findOne({ where: { businessId: tx.requireBusiness(), livemode: true } });
      if (existing) throw alreadyIssued();
      const credentials = await this.issueCredentials(tx, tx.requireBusiness(), Mode.LIVE);
      await this.onModeEnabled(tx.forBusiness(tx.requireBusiness(), Mode.LIVE));
      return credentials;
    }).catch(conflictOnUniqueViolation(alreadyIssued));
  }

  /** New key for the credential of `mode`; the old key (and tokens made from it) stop working at once. */
  async regenerateApiKey(ctx: RequestContext, mode: Mode = ctx.mode): Promise<{ apiKey: string; mode: Mode; keyHint: string }> {
    ctx.requireRole(...ADMIN_ROLES, Role.DEVELOPER);
    // A test credential must never reach live data, and a new live key is live data.
    if (ctx.actor.kind === 'api' && mode !== ctx.mode) throw forbidden(`A ${ctx.mode} credential cannot regenerate the ${mode} key`);
    return inTransaction(ctx, async (tx) => {
      const credential = await tx.repo(ApiCredential).findOne({
        where: { businessId: tx.requireBusiness(), livemode: mode === Mode.LIVE },
        lock: { mode: 'pessimistic_write' },
      });
      if (!credential) throw notFound('API credential');
      const apiKey = newApiKey(mode);
      await tx.repo(ApiCredential).update({ id: credential.id }, {
        keyHash: hashApiKey(apiKey), keyHint: hintOf(apiKey), keyVersion: credential.keyVersion + 1,
      });
      this.announceRevocation(tx, { kind: 'credential', businessId: credential.businessId, credentialId: credential.id });
      return { apiKey, mode, keyHint: hintOf(apiKey) };
    });
  }

  private async issueCredentials(tx: RequestContext, businessId: string, mode: Mode): Promise<IssuedCredentials> {
    const apiKey = newApiKey(mode);
    const apiSecret = newApiSecret(mode);
    const publishableKey = newPublishableKey(mode);
    await tx.repo(ApiCredential).save(tx.repo(ApiCredential).create({
      publishableKey,
      businessId,
      livemode: mode === Mode.LIVE,
      keyHash: hashApiKey(apiKey),
      keyHint: hintOf(apiKey),
      secretCiphertext: this.secretBox.seal(apiSecret),
      secretHint: hintOf(apiSecret),
    }));
    return { mode, apiKey, apiSecret, publishableKey };
  }

  // ---------------------------------------------------------------- team

  async members(ctx: RequestContext): Promise<Membership[]> {
    ctx.requireRole(...ALL_ROLES);
    return ctx.repo(Membership).find({ where: { businessId: ctx.requireBusiness() }, order: { createdAt: 'ASC' } });
  }

  async changeMemberRole(ctx: RequestContext, membershipId: string, role: Role): Promise<Membership> {
    ctx.requireDashboardRole(...ADMIN_ROLES);
    parseInput(roleSchema, { role });
    assertMayGrant(ctx, role);
    return inTransaction(ctx, async (tx) => {
      const membership = await this.lockedMembership(tx, membershipId);
      assertMayGrant(tx, membership.role);
      if (membership.role === Role.OWNER && role !== Role.OWNER) await this.assertAnotherOwner(tx, membership);
      if (membership.role !== role) this.announceRevocation(tx, { kind: 'member', businessId: membership.businessId, userId: membership.userId });
      membership.role = role;
      return tx.repo(Membership).save(membership);
    });
  }

  async removeMember(ctx: RequestContext, membershipId: string): Promise<Membership> {
    ctx.requireDashboardRole(...ADMIN_ROLES);
    return inTransaction(ctx, async (tx) => {
      const membership = await this.lockedMembership(tx, membershipId);
      assertMayGrant(tx, membership.role);
      if (membership.role === Role.OWNER) await this.assertAnotherOwner(tx, membership);
      await tx.repo(Membership).delete({ id: membership.id });
      this.announceRevocation(tx, { kind: 'member', businessId: membership.businessId, userId: membership.userId });
      return membership;
    });
  }

  /**
   * Locks the business row first, so that role changes and removals of one business run one after
   * another: two OWNERs demoting each other at once would otherwise each still count the other.
   */
  private async lockedMembership(tx: RequestContext, membershipId: string): Promise<Membership> {
    await tx.repo(Business).findOne({ where: { id: tx.requireBusiness() }, lock: { mode: 'for_no_key_update' } });
    const membership = isUuid(membershipId)
      ? await tx.repo(Membership).findOne({ where: { id: membershipId, businessId: tx.requireBusiness() }, lock: { mode: 'pessimistic_write' } })
      : null;
    if (!membership) throw notFound('Member');
    return membership;
  }

  /**
   * Tells every process, once the change has committed, that access was taken away, so open
   * sockets of that credential or member close at once instead of at their next re-check.
   */
  private announceRevocation(tx: RequestContext, revocation: AccessRevocation) {
    tx.afterCommit(() => this.pubSub.publish(Topic.ACCESS_REVOKED, revocation));
  }

  private async assertAnotherOwner(tx: RequestContext, membership: Membership) {
    const owners = await tx.repo(Membership).count({ where: { businessId: membership.businessId, role: Role.OWNER } });
    if (owners <= 1) throw new DomainError(ErrorCode.CONFLICT, 'A business must keep at least one OWNER');
  }
}
