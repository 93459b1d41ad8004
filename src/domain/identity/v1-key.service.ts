import { IsNull } from 'typeorm';
import { lockOwnBusiness } from './own-business';
import { Business } from './identity.entities';
import { Mode, Role } from '../shared/modes';
import { ALL_ROLES } from '../shared/context';
import { RequestContext, inTransaction } from '../shared/context';
import { SecretBox, randomToken, sha256Hex } from '../shared/crypto';
import { forbidden, unauthorized } from '../shared/errors';
import { IssueV1KeyCommand } from './identity.commands';
import { V1ApiKey } from './v1-key.entity';

/** The prefix of `/v1` secret keys: the service's name, the mode, `sk_`. */
export const v1KeyPrefix = (mode: Mode) => (mode === Mode.LIVE ? 'tessera_live_sk_' : 'tessera_test_sk_');
export const isV1Key = (value: string) => value.startsWith('tessera_');
const modeOfV1Key = (key: string): Mode | null =>
  key.startsWith(v1KeyPrefix(Mode.LIVE)) ? Mode.LIVE : key.startsWith(v1KeyPrefix(Mode.TEST)) ? Mode.TEST : null;

/** Every refusal of a presented key reads alike, so that a caller learns nothing of other keys. */
export const invalidV1Key = (
  message = 'Invalid API key: send Authorization: Bearer tessera_test_sk_… (or tessera_live_sk_…)',
) => unauthorized(message);

/** A `/v1` key as issued: the key itself is shown this once. */
export interface IssuedV1Key {
  apiKey: string;
  mode: Mode;
  keyHint: string;
  createdAt: Date;
}

/**
 * The `/v1` secret keys (design section 11): one active key per business and mode, issued only to
 * a verified business by the operator or an OWNER; reissuing revokes the previous key at once. A
 * key authenticates a request into a context of its business and mode (an `api` actor), so that
 * `/v1` reaches the domain with the same rights and tenancy as any API credential.
 */
export class V1KeyService {
  constructor(private readonly secretBox: SecretBox) {}

  async issue(ctx: RequestContext, command: IssueV1KeyCommand): Promise<IssuedV1Key> {
    ctx.requireDashboardRole(Role.OWNER);
    return inTransaction(ctx, async (tx) => {
      const business = await lockOwnBusiness(tx);
      const businessId = business.id;
      if (!business.verified)
        throw forbidden('Only a verified business gets /v1 API keys; ask the operator to verify the business');
      const livemode = command.mode === Mode.LIVE;
      // Under the business's lock, so two concurrent issues leave exactly one active key.
      await tx
        .repo(V1ApiKey)
        .createQueryBuilder()
        .update(V1ApiKey)
        .set({ revokedAt: () => 'now()' })
        .where('business_id = :businessId AND livemode = :livemode AND revoked_at IS NULL', { businessId, livemode })
        .execute();
      const apiKey = `${v1KeyPrefix(command.mode)}${randomToken(24)}`;
      const row = await tx.repo(V1ApiKey).save(
        tx.repo(V1ApiKey).create({
          businessId,
          livemode,
          keyHash: sha256Hex(apiKey),
          keyHint: `${apiKey.slice(0, 20)}…`,
          keyCiphertext: this.secretBox.seal(apiKey),
          revokedAt: null,
        }),
      );
      return { apiKey, mode: command.mode, keyHint: row.keyHint, createdAt: row.createdAt };
    });
  }

  /** The business's active `/v1` keys (hints only): both modes for dashboard users, its own mode for an API credential. */
  async active(ctx: RequestContext): Promise<V1ApiKey[]> {
    ctx.requireRole(...ALL_ROLES);
    const where = {
      businessId: ctx.requireBusiness(),
      revokedAt: IsNull(),
      ...(ctx.actor.kind === 'api' ? { livemode: ctx.livemode } : {}),
    };
    return ctx.repo(V1ApiKey).find({ where, order: { livemode: 'ASC' } });
  }

  /**
   * The context of a `/v1` request: the key's business and mode, looked up on every request (a
   * revoked key, or a business no longer verified, is refused at once). 401 otherwise.
   */
  async authenticate(base: RequestContext, apiKey: string): Promise<RequestContext> {
    const mode = modeOfV1Key(apiKey);
    if (!mode) throw invalidV1Key();
    const row = await base
      .repo(V1ApiKey)
      .createQueryBuilder('key')
      .innerJoinAndMapOne('key.business', Business, 'business', 'business.id = key.business_id')
      .where('key.key_hash = :keyHash AND key.revoked_at IS NULL', { keyHash: sha256Hex(apiKey) })
      .getOne();
    if (!row || row.livemode !== (mode === Mode.LIVE)) throw invalidV1Key();
    if (!row.business?.verified) throw invalidV1Key('API access requires a verified business account');
    return new RequestContext(
      base.dataSource,
      { kind: 'api', credentialId: row.id },
      row.businessId,
      mode,
      base.origin,
    );
  }

  /** The active key of a business and mode, unsealed: `/v1` events are signed with it. Null when none is active. */
  async signingKeyOf(ctx: RequestContext, businessId: string, livemode: boolean): Promise<string | null> {
    const row = await ctx.repo(V1ApiKey).findOne({ where: { businessId, livemode, revokedAt: IsNull() } });
    return row ? this.secretBox.open(row.keyCiphertext) : null;
  }
}
