import { ApiCredential } from './identity.entities';
import { Mode, Role } from '../shared/modes';
import { hashApiKey, hintOf, newApiKey, newApiSecret, newPublishableKey } from './credentials';
import { RegenerateApiKey } from './identity.commands';
import { announceRevocation, credentialRevoked } from './identity.events';
import { ADMIN_ROLES, ALL_ROLES, RequestContext, inTransaction } from '../shared/context';
import { DomainEventBus } from '../shared/domain-events';
import { DomainError, ErrorCode, forbidden, notFound } from '../shared/errors';
import { SecretBox } from '../shared/crypto';
import { TesseraPubSub } from '../events/pubsub';
import { conflictOnUniqueViolation } from '../shared/unique-violation';
import { lockOwnBusiness } from './own-business';

export interface IssuedCredentials {
  mode: Mode;
  apiKey: string;
  apiSecret: string;
  /** Browser-safe; creates card tokens only. */
  publishableKey: string;
}

export interface RegeneratedApiKey {
  apiKey: string;
  mode: Mode;
  keyHint: string;
}

/**
 * API credentials: one key/secret pair and publishable key per business and mode. Keys are kept
 * only as hashes, secrets sealed; both are shown once, when issued.
 */
export class CredentialService {
  constructor(
    private readonly secretBox: SecretBox,
    private readonly pubSub: TesseraPubSub,
    private readonly bus: DomainEventBus,
  ) {}

  /** Hints of the business's credentials: both modes for dashboard users, its own mode for an API credential. */
  async list(ctx: RequestContext): Promise<ApiCredential[]> {
    ctx.requireRole(...ALL_ROLES);
    const where = {
      businessId: ctx.requireBusiness(),
      ...(ctx.actor.kind === 'api' ? { livemode: ctx.livemode } : {}),
    };
    return ctx.repo(ApiCredential).find({ where, order: { livemode: 'ASC' } });
  }

  /** Issues the business's first live credential (OWNER, signed in to the dashboard). Shown once. */
  async createLive(ctx: RequestContext): Promise<IssuedCredentials> {
    ctx.requireDashboardRole(Role.OWNER);
    const alreadyIssued = () =>
      new DomainError(ErrorCode.CONFLICT, 'Live credentials already exist; regenerate the key instead');
    return inTransaction(ctx, async (tx) => {
      const existing = await tx
        .repo(ApiCredential)
        .findOne({ where: { businessId: tx.requireBusiness(), livemode: true } });
      if (existing) throw alreadyIssued();
      return this.issue(tx, tx.requireBusiness(), Mode.LIVE);
    }).catch(conflictOnUniqueViolation(alreadyIssued));
  }

  /** New key for the credential of the mode; the old key (and tokens made from it) stop working at once. */
  async regenerateApiKey(ctx: RequestContext, command: RegenerateApiKey = {}): Promise<RegeneratedApiKey> {
    const mode = command.mode ?? ctx.mode;
    ctx.requireRole(...ADMIN_ROLES, Role.DEVELOPER);
    // A test credential must never reach live data, and a new live key is live data.
    if (ctx.actor.kind === 'api' && mode !== ctx.mode)
      throw forbidden(`A ${ctx.mode} credential cannot regenerate the ${mode} key`);
    return inTransaction(ctx, async (tx) => {
      const apiKey = newApiKey(mode);
      await this.replace(tx, mode, { apiKey });
      return { apiKey, mode, keyHint: hintOf(apiKey) };
    });
  }

  /**
   * The operator's recovery of lost test credentials (`business rotate-test-credentials`): a new
   * API key, API secret (also the webhook signing secret) and publishable key for the context's
   * business in test mode, shown once. The old ones stop working at once, tokens made from the old
   * key too, and open sockets using them are closed, as when the key is regenerated.
   */
  async rotateTestCredentials(ctx: RequestContext): Promise<IssuedCredentials> {
    ctx.requireOperator();
    return inTransaction(ctx, async (tx) => {
      await lockOwnBusiness(tx);
      const issued = {
        mode: Mode.TEST,
        apiKey: newApiKey(Mode.TEST),
        apiSecret: newApiSecret(Mode.TEST),
        publishableKey: newPublishableKey(Mode.TEST),
      };
      await this.replace(tx, Mode.TEST, issued);
      return issued;
    });
  }

  /**
   * Puts a new key (and, when given, a new secret and publishable key) on the business's credential
   * of the mode, inside the caller's transaction; tokens of the old key die with its version, and
   * the revocation is announced once the change commits.
   */
  private async replace(
    tx: RequestContext,
    mode: Mode,
    fresh: { apiKey: string; apiSecret?: string; publishableKey?: string },
  ): Promise<void> {
    const credential = await tx.repo(ApiCredential).findOne({
      where: { businessId: tx.requireBusiness(), livemode: mode === Mode.LIVE },
      lock: { mode: 'pessimistic_write' },
    });
    if (!credential) throw notFound('API credential');
    await tx.repo(ApiCredential).update(
      { id: credential.id },
      {
        keyHash: hashApiKey(fresh.apiKey),
        keyHint: hintOf(fresh.apiKey),
        keyVersion: credential.keyVersion + 1,
        ...(fresh.apiSecret
          ? { secretCiphertext: this.secretBox.seal(fresh.apiSecret), secretHint: hintOf(fresh.apiSecret) }
          : {}),
        ...(fresh.publishableKey ? { publishableKey: fresh.publishableKey } : {}),
      },
    );
    announceRevocation(tx, this.pubSub, credentialRevoked(credential.businessId, credential.id));
  }

  /** Issues the credentials of a mode (inside the caller's transaction) and enables the mode for the business. */
  async issue(tx: RequestContext, businessId: string, mode: Mode): Promise<IssuedCredentials> {
    const apiKey = newApiKey(mode);
    const apiSecret = newApiSecret(mode);
    const publishableKey = newPublishableKey(mode);
    await tx.repo(ApiCredential).save(
      tx.repo(ApiCredential).create({
        publishableKey,
        businessId,
        livemode: mode === Mode.LIVE,
        keyHash: hashApiKey(apiKey),
        keyHint: hintOf(apiKey),
        secretCiphertext: this.secretBox.seal(apiSecret),
        secretHint: hintOf(apiSecret),
      }),
    );
    await this.bus.publish(tx.forBusiness(businessId, mode), 'identity.mode-enabled', { businessId, mode });
    return { mode, apiKey, apiSecret, publishableKey };
  }
}
