import { Role } from '../shared/modes';
import { requireTreasuryPartner } from '../identity';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { SecretBox, randomToken } from '../shared/crypto';
import { validationError } from '../shared/errors';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint, WebhookRegistry } from './webhook-endpoint.entity';
import { WebhookTargetPolicy } from '../shared/url-policy';
import { WebhookEndpointRegistry, findEndpoint } from './webhook-endpoint-registry';
import { CreateTreasuryEndpoint, RotateSigningSecret, UpdateTreasuryEndpoint } from './webhooks.commands';

/** The interface versions a treasury endpoint may ask for; the first is the default. */
export const TREASURY_WEBHOOK_API_VERSIONS = ['2026-04-15'] as const;

/** A rotation keeps the retired secret signing for this long unless told otherwise (0 to 168 hours). */
export const DEFAULT_GRACE_PERIOD_HOURS = 24;

const SIGNING_SECRET_PREFIX = 'whsk_';

/** `whsk_` + 32 random bytes (base64url): the key bytes of both signature schemes are its UTF-8 bytes. */
const newSigningSecret = () => `${SIGNING_SECRET_PREFIX}${randomToken(32)}`;

/** What the API shows of a secret after it was issued: `whsk_…` and its last 4 characters. */
const signingSecretHint = (secret: string) => `${SIGNING_SECRET_PREFIX}…${secret.slice(-4)}`;

export const MAX_GRACE_PERIOD_HOURS = 168;
export const API_VERSION_MESSAGE = `must be one of: ${TREASURY_WEBHOOK_API_VERSIONS.join(', ')}`;
export const GRACE_PERIOD_MESSAGE = `must be an integer between 0 and ${MAX_GRACE_PERIOD_HOURS}`;

const assertApiVersion = (apiVersion: string | undefined) => {
  if (apiVersion !== undefined && !(TREASURY_WEBHOOK_API_VERSIONS as readonly string[]).includes(apiVersion)) {
    throw validationError({ apiVersion: [API_VERSION_MESSAGE] });
  }
};

/** An endpoint with its signing secret in plain, as answered once by creation and by rotation. */
export interface IssuedSigningSecret {
  endpoint: WebhookEndpoint;
  signingSecret: string;
}

/** The secrets one attempt is signed with: the current one, and the retired one during its grace period. */
export interface SigningSecrets {
  current: string;
  previous: string | null;
}

/**
 * The treasury partners' registry of webhook endpoints (`/treasury/webhook-endpoints`): the merchant
 * registry's rules, for businesses with the treasury product enabled, plus a signing secret per
 * endpoint. The secret is shown once, at creation and at each rotation, and stored sealed.
 */
export class TreasuryWebhookEndpointService extends WebhookEndpointRegistry {
  protected readonly registry = WebhookRegistry.TREASURY;

  constructor(
    targets: WebhookTargetPolicy,
    private readonly secretBox: SecretBox,
  ) {
    super(targets);
  }

  protected override async authorize(ctx: RequestContext, roles: Role[]): Promise<void> {
    await super.authorize(ctx, roles);
    await requireTreasuryPartner(ctx);
  }

  async create(ctx: RequestContext, data: CreateTreasuryEndpoint): Promise<IssuedSigningSecret> {
    await this.authorize(ctx, WRITE_ROLES);
    assertApiVersion(data.apiVersion);
    const signingSecret = newSigningSecret();
    const endpoint = await this.insert(ctx, data, {
      secretCiphertext: this.secretBox.seal(signingSecret),
      secretHint: signingSecretHint(signingSecret),
      apiVersion: data.apiVersion ?? TREASURY_WEBHOOK_API_VERSIONS[0],
    });
    return { endpoint, signingSecret };
  }

  /** The endpoints a page at a time, newest first, for GraphQL's connection (the same rows as `list`). */
  async page(ctx: RequestContext, page: PageQuery): Promise<ListPage<WebhookEndpoint>> {
    await this.authorize(ctx, ALL_ROLES);
    const query = newestFirst(ctx, WebhookEndpoint, 'endpoint').andWhere('endpoint.registry = :registry', {
      registry: this.registry,
    });
    return paginate(query, 'endpoint', page, { registry: this.registry });
  }

  override async update(ctx: RequestContext, id: string, changes: UpdateTreasuryEndpoint): Promise<WebhookEndpoint> {
    assertApiVersion(changes.apiVersion);
    return super.update(ctx, id, changes);
  }

  /**
   * Issues a new signing secret. The one it replaces keeps signing beside it for `gracePeriodHours`
   * (default 24, 0 retires it at once); a rotation during a grace period drops the older secret.
   */
  async rotateSecret(ctx: RequestContext, id: string, command: RotateSigningSecret = {}): Promise<IssuedSigningSecret> {
    await this.authorize(ctx, WRITE_ROLES);
    await findEndpoint(ctx, id, this.registry);
    const { gracePeriodHours = DEFAULT_GRACE_PERIOD_HOURS } = command;
    if (!Number.isInteger(gracePeriodHours) || gracePeriodHours < 0 || gracePeriodHours > MAX_GRACE_PERIOD_HOURS) {
      throw validationError({ gracePeriodHours: [GRACE_PERIOD_MESSAGE] });
    }
    const signingSecret = newSigningSecret();
    const endpoint = await inTransaction(ctx, async (tx) => {
      const endpoint = await findEndpoint(tx, id, this.registry, { lock: true });
      const graceful = gracePeriodHours > 0;
      endpoint.previousSecretCiphertext = graceful ? endpoint.secretCiphertext : null;
      endpoint.previousSecretExpiresAt = graceful ? new Date(Date.now() + gracePeriodHours * 3_600_000) : null;
      endpoint.secretCiphertext = this.secretBox.seal(signingSecret);
      endpoint.secretHint = signingSecretHint(signingSecret);
      return tx.repo(WebhookEndpoint).save(endpoint);
    });
    return { endpoint, signingSecret };
  }

  /**
   * The secrets an attempt of a treasury delivery is signed with at `at`, or null when its endpoint
   * was deleted (a treasury delivery is never signed with anything else).
   */
  async signingSecretsOf(ctx: RequestContext, delivery: WebhookDelivery, at: Date): Promise<SigningSecrets | null> {
    const endpoint = delivery.endpointId
      ? await ctx.repo(WebhookEndpoint).findOne({
          where: { id: delivery.endpointId, businessId: delivery.businessId, registry: this.registry },
        })
      : null;
    if (!endpoint?.secretCiphertext) return null;
    const inGrace =
      endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > at;
    return {
      current: this.secretBox.open(endpoint.secretCiphertext),
      previous: inGrace ? this.secretBox.open(endpoint.previousSecretCiphertext!) : null,
    };
  }
}
