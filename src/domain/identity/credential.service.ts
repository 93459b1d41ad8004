import { ApiCredential, Mode, Role } from './identity.entities';
import { hashApiKey, hintOf, newApiKey, newApiSecret, newPublishableKey } from './credentials';
import { RegenerateApiKey } from './identity.commands';
import { announceRevocation, credentialRevoked } from './identity.events';
import { ADMIN_ROLES, ALL_ROLES, RequestContext, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, forbidden, notFound } from '../shared/errors';
import { SecretBox } from '../shared/crypto';
import { TesseraPubSub } from '../events/pubsub';
import { conflictOnUniqueViolation } from './unique-violation';

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
    /** Provisions what a business needs in a mode (its default wallet) once that mode is enabled. */
    private readonly onModeEnabled: (ctx: RequestContext) => Promise<void>,
  ) {}

  /** Hints of the business's credentials: both modes for dashboard users, its own mode for an API credential. */
  async list(ctx: RequestContext): Promise<ApiCredential[]> {
    ctx.requireRole(...ALL_ROLES);
    const where = { businessId: ctx.requireBusiness(), ...(ctx.actor.kind === 'api' ? { livemode: ctx.livemode } : {}) };
    return ctx.repo(ApiCredential).find({ where, order: { livemode: 'ASC' } });
  }

  /** Issues the business's first live credential (OWNER, signed in to the dashboard). Shown once. */
  async createLive(ctx: RequestContext): Promise<IssuedCredentials> {
    ctx.requireDashboardRole(Role.OWNER);
    const alreadyIssued = () => new DomainError(ErrorCode.CONFLICT, 'Live credentials already exist; regenerate the key instead');
    return inTransaction(ctx, async (tx) => {
      const existing = await tx.repo(ApiCredential).findOne({ where: { businessId: tx.requireBusiness(), livemode: true } });
      if (existing) throw alreadyIssued();
      return this.issue(tx, tx.requireBusiness(), Mode.LIVE);
    }).catch(conflictOnUniqueViolation(alreadyIssued));
  }

  /** New key for the credential of the mode; the old key (and tokens made from it) stop working at once. */
  async regenerateApiKey(ctx: RequestContext, command: RegenerateApiKey = {}): Promise<RegeneratedApiKey> {
    const mode = command.mode ?? ctx.mode;
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
      announceRevocation(tx, this.pubSub, credentialRevoked(credential.businessId, credential.id));
      return { apiKey, mode, keyHint: hintOf(apiKey) };
    });
  }

  /** Issues the credentials of a mode (inside the caller's transaction) and enables the mode for the business. */
  async issue(tx: RequestContext, businessId: string, mode: Mode): Promise<IssuedCredentials> {
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
    await this.onModeEnabled(tx.forBusiness(businessId, mode));
    return { mode, apiKey, apiSecret, publishableKey };
  }
}
