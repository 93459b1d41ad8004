import { Business, Membership, User } from './identity.entities';
import { BusinessSettings } from '../shared/business-settings.entity';
import { Mode, Role } from '../shared/modes';
import {
  BusinessSettingsChanges,
  NewAccount,
  OperatorAccount,
  OperatorBusinessUpdate,
  WebhookUrlConfig,
} from './identity.commands';
import { AuthService } from './auth.service';
import { CredentialService, IssuedCredentials } from './credential.service';
import { lockOwnBusiness } from './own-business';
import { conflictOnUniqueViolation } from '../shared/unique-violation';
import { ADMIN_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, FieldErrors, notFound, validationError } from '../shared/errors';
import { hashPassword } from '../shared/crypto';
import { WebhookTargetPolicy } from '../shared/url-policy';
import { ProductSettings } from './product-settings';

export interface OpenedAccount {
  user: User;
  business: Business;
  credentials: IssuedCredentials;
  token: string;
}

const emailTaken = () =>
  new DomainError(ErrorCode.CONFLICT, 'An account with this email already exists', {
    email: ['is already registered'],
  });

/**
 * Businesses: opening an account with its first business, the profile and the webhook URL of
 * each mode (a generic business_settings row; each product's own settings live in its area's
 * `<area>.settings.ts`), and the operator's product switches.
 */
export class BusinessService {
  constructor(
    private readonly auth: AuthService,
    private readonly credentials: CredentialService,
    /** Judges the webhookUrl like every webhook target. */
    private readonly webhookTargets: WebhookTargetPolicy,
    /** The settings of each product, contributed by its area. */
    private readonly products: ReadonlyArray<ProductSettings<OperatorBusinessUpdate>>,
  ) {}

  /**
   * Creates a user, their business (with them as OWNER), its test credentials and wallet, and signs
   * the user in. CONFLICT when the email has an account, also when a concurrent request created it
   * first (the unique email). Callers have proven the address (SignUpService) or are the operator.
   */
  async openAccount(ctx: RequestContext, account: NewAccount): Promise<OpenedAccount> {
    return inTransaction(ctx, async (tx) => {
      const existing = await tx.repo(User).findOne({ where: { email: account.email } });
      if (existing) throw emailTaken();
      const user = await tx
        .repo(User)
        .save(tx.repo(User).create({ email: account.email, name: account.name, passwordHash: account.passwordHash }));
      const business = await tx
        .repo(Business)
        .save(tx.repo(Business).create({ name: account.businessName, email: account.email }));
      await tx
        .repo(BusinessSettings)
        .save([
          tx.repo(BusinessSettings).create({ businessId: business.id, livemode: false, webhookUrl: null }),
          tx.repo(BusinessSettings).create({ businessId: business.id, livemode: true, webhookUrl: null }),
        ]);
      await tx
        .repo(Membership)
        .save(tx.repo(Membership).create({ userId: user.id, businessId: business.id, role: Role.OWNER }));
      const credentials = await this.credentials.issue(tx, business.id, Mode.TEST);
      return { user, business, credentials, token: this.auth.dashboardToken(user.id) };
    }).catch(conflictOnUniqueViolation(emailTaken));
  }

  /**
   * Operator entry (CLI, first start): a business, its owner account and its test credentials, at
   * once and without an email round trip; an email that has an account is CONFLICT. The faces
   * check the shape (src/wire/accounts.ts); the business is named after the owner's `name`.
   */
  async createBusinessWithOwnerAccount(base: RequestContext, account: OperatorAccount): Promise<OpenedAccount> {
    const email = account.email.trim().toLowerCase();
    const name = account.name.trim();
    return this.openAccount(base, {
      email,
      name,
      businessName: name,
      passwordHash: await hashPassword(account.password),
    });
  }

  /**
   * Operator entry (`tessera business update`): switches products of the context's business (the
   * treasury product, its verification, and the payments settings of the context's mode). Never reachable with a
   * credential. Each setting is judged and written by its product's settings.
   */
  async updateAsOperator(ctx: RequestContext, update: OperatorBusinessUpdate): Promise<Business> {
    ctx.requireOperator();
    const errors: FieldErrors = Object.values(update).some((value) => value !== undefined)
      ? this.products.reduce<FieldErrors>((errors, product) => ({ ...errors, ...product.errors(update) }), {})
      : { _: ['names no setting to change'] };
    if (Object.keys(errors).length > 0) throw validationError(errors);
    return inTransaction(ctx, async (tx) => {
      const business = await lockOwnBusiness(tx);
      for (const product of this.products) await product.apply(tx, business, update);
      if (update.verified !== undefined) business.verified = update.verified;
      return tx.repo(Business).save(business);
    });
  }

  async business(ctx: RequestContext): Promise<Business> {
    const business = await ctx.repo(Business).findOne({ where: { id: ctx.requireBusiness() } });
    if (!business) throw notFound('Business');
    return business;
  }

  /** The settings row of the context's business and mode (the webhook URL; products read their own fields). */
  async settings(ctx: RequestContext): Promise<BusinessSettings> {
    return ctx
      .repo(BusinessSettings)
      .findOneOrFail({ where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
  }

  /**
   * Updates the business name and the webhook URL of the context's mode. The webhook URL must pass
   * the target policy of the mode (live: https and public; test: private only where allowed).
   */
  async updateSettings(
    ctx: RequestContext,
    changes: BusinessSettingsChanges,
  ): Promise<{ business: Business; settings: BusinessSettings }> {
    ctx.requireRole(...WRITE_ROLES);
    const refusal = changes.webhookUrl ? await this.webhookTargets.refusal(changes.webhookUrl, ctx.livemode) : null;
    if (refusal) throw validationError({ webhookUrl: [refusal] });
    return inTransaction(ctx, async (tx) => {
      if (changes.name !== undefined) {
        tx.requireRole(...ADMIN_ROLES);
        await tx.repo(Business).update({ id: tx.requireBusiness() }, { name: changes.name });
      }
      if (changes.webhookUrl !== undefined) {
        await tx
          .repo(BusinessSettings)
          .update({ businessId: tx.requireBusiness(), livemode: tx.livemode }, { webhookUrl: changes.webhookUrl });
      }
      return { business: await this.business(tx), settings: await this.settings(tx) };
    });
  }

  /** `PUT /business/config`: sets (or, with null, removes) the webhook URL of the context's mode. */
  async configureWebhook(ctx: RequestContext, config: WebhookUrlConfig) {
    return this.updateSettings(ctx, { webhookUrl: config.webhookUrl });
  }
}
