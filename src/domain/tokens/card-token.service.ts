import { VaultedCard } from '../../providers/card-acquirer/port';
import { CardDetails } from '../shared/card';
import { RequestContext } from '../shared/context';
import { randomToken } from '../shared/crypto';
import { DomainError, forbidden, validationError } from '../shared/errors';
import { CreateCardTokenCommand } from './card-token.commands';
import { CardToken } from './card-token.entity';

/** How long a card token can be used after it was made. */
export const CARD_TOKEN_TTL_SECONDS = 15 * 60;

/** Expired tokens are kept this long (so a late charge hears "has expired"), then purged. */
export const CARD_TOKEN_RETENTION_SECONDS = 24 * 3600;

const TOKEN_ID = /^tok_[A-Za-z0-9_-]{1,64}$/;

/**
 * Card tokens for the browser SDK: the browser sends the card straight to Tessera with the
 * business's publishable key and gets a single-use `tok_…` back; the merchant's server then
 * charges (or saves) the token with its secret key, so card numbers never touch that server.
 */
export class CardTokenService {
  constructor(private readonly vault: (ctx: RequestContext, card: CardDetails) => Promise<VaultedCard>) {}

  /** POST /api/v1/tokens: only a publishable key may create tokens. */
  async create(ctx: RequestContext, { card }: CreateCardTokenCommand): Promise<CardToken> {
    if (ctx.actor.kind !== 'publishable') throw forbidden('Card tokens are created with the publishable key (pk_…)');
    const vaulted = await this.vault(ctx, card);
    const createdAt = new Date();
    return ctx.repo(CardToken).save(
      ctx.repo(CardToken).create({
        id: `tok_${randomToken(18)}`,
        businessId: ctx.requireBusiness(),
        livemode: ctx.livemode,
        providerRef: vaulted.providerRef,
        brand: vaulted.brand,
        last4: vaulted.last4,
        bin: vaulted.bin,
        expiryMonth: vaulted.expiryMonth,
        expiryYear: vaulted.expiryYear,
        fingerprint: vaulted.fingerprint,
        country: vaulted.country,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + CARD_TOKEN_TTL_SECONDS * 1000),
        usedAt: null,
      }),
    );
  }

  /** Housekeeping (hourly job): deletes tokens that expired more than a day ago, used or not. */
  async purgeExpired(system: RequestContext): Promise<number> {
    const result = await system
      .repo(CardToken)
      .createQueryBuilder()
      .delete()
      .where('expires_at < now() - make_interval(secs => :retention)', { retention: CARD_TOKEN_RETENTION_SECONDS })
      .execute();
    return result.affected ?? 0;
  }
}

/**
 * Consumes a token of the context's business and mode and returns its card. One conditional
 * UPDATE does it, so of two concurrent uses exactly one wins. Unknown (or another business's or
 * mode's), expired and used tokens are a VALIDATION_ERROR on `field`.
 */
export async function redeemCardToken(tx: RequestContext, tokenId: string, field = 'token'): Promise<VaultedCard> {
  const scope = { id: tokenId, businessId: tx.requireBusiness(), livemode: tx.livemode };
  const updated: { raw: unknown } = TOKEN_ID.test(tokenId)
    ? await tx
        .repo(CardToken)
        .createQueryBuilder()
        .update(CardToken)
        .set({ usedAt: () => 'now()' })
        .where(
          'id = :id AND business_id = :businessId AND livemode = :livemode AND used_at IS NULL AND expires_at > now()',
          scope,
        )
        .returning('*')
        .execute()
    : { raw: [] };
  const row = (updated.raw as Array<Record<string, string | number>>)[0];
  if (row) {
    return {
      providerRef: String(row.provider_ref),
      brand: String(row.brand),
      last4: String(row.last4),
      bin: String(row.bin),
      expiryMonth: Number(row.expiry_month),
      expiryYear: Number(row.expiry_year),
      fingerprint: String(row.fingerprint),
      country: String(row.country),
    };
  }
  const token = TOKEN_ID.test(tokenId) ? await tx.repo(CardToken).findOne({ where: scope }) : null;
  throw unusable(token, field);
}

/**
 * The card of a token that can still be used, without using it: what a caller hands the acquirer
 * before the transaction that redeems the token (redeemCardToken, which refuses it if it was used meanwhile).
 */
export async function peekCardToken(ctx: RequestContext, tokenId: string, field = 'token'): Promise<VaultedCard> {
  const token = TOKEN_ID.test(tokenId)
    ? await ctx.repo(CardToken).findOne({
        where: { id: tokenId, businessId: ctx.requireBusiness(), livemode: ctx.livemode },
      })
    : null;
  if (!token || token.usedAt || token.expiresAt.getTime() <= Date.now()) throw unusable(token, field);
  return {
    providerRef: token.providerRef,
    brand: token.brand,
    last4: token.last4,
    bin: token.bin,
    expiryMonth: token.expiryMonth,
    expiryYear: token.expiryYear,
    fingerprint: token.fingerprint,
    country: token.country,
  };
}

/** Why a token cannot be used: used, expired, or none of the context's business and mode. */
function unusable(token: CardToken | null, field: string): DomainError {
  if (token?.usedAt) return validationError({ [field]: ['has already been used; card tokens are single-use'] });
  if (token) return validationError({ [field]: ['has expired; card tokens can be used for 15 minutes'] });
  return validationError({ [field]: ['is not a card token of this business and mode'] });
}
