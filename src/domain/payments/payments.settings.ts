import { BusinessSettings } from '../shared/business-settings.entity';
import { Role } from '../shared/modes';
import { RequestContext, inTransaction } from '../shared/context';
import { FieldErrors, forbidden } from '../shared/errors';
import type { ProductSettings } from '../identity';

/**
 * The payments product's settings of a business, per mode (kept on its business_settings row):
 * server-to-server card charging, the card fee schedule and the dispute fee. Operators change
 * them with `tessera business update`; a dashboard OWNER may switch server-to-server charging in
 * test mode only.
 */
export interface PaymentSettingsChanges {
  /** Server-to-server card charging (POST /business/payment/charge). */
  serverToServerCharging?: boolean;
  /** Card fee: basis points of the amount (290 = 2.9%). */
  cardFeeBps?: number;
  /** Card fee: fixed part, in minor units of the payment's currency. */
  cardFeeFixedMinor?: bigint;
  /** Non-refundable dispute fee, in minor units of the payment's currency. */
  disputeFeeMinor?: bigint;
}

export const MAX_CARD_FEE_BPS = 10_000;
export const MAX_FEE_MINOR = 1_000_000_000n;

/** Why changes are refused, by field (empty when they are acceptable). */
export function paymentSettingsErrors(changes: PaymentSettingsChanges): FieldErrors {
  const errors: FieldErrors = {};
  const { cardFeeBps, cardFeeFixedMinor, disputeFeeMinor } = changes;
  if (cardFeeBps !== undefined) {
    if (!Number.isInteger(cardFeeBps) || cardFeeBps < 0) errors.cardFeeBps = ['must be a whole number of at least 0'];
    else if (cardFeeBps > MAX_CARD_FEE_BPS) errors.cardFeeBps = [`must be at most ${MAX_CARD_FEE_BPS} (100%)`];
  }
  for (const [field, value] of [
    ['cardFeeFixedMinor', cardFeeFixedMinor],
    ['disputeFeeMinor', disputeFeeMinor],
  ] as const) {
    if (value === undefined) continue;
    if (value < 0n) errors[field] = ['must be a whole number of at least 0'];
    else if (value > MAX_FEE_MINOR) errors[field] = ['is too large'];
  }
  return errors;
}

/** The payments settings of the context's business and mode. */
export async function paymentSettingsOf(ctx: RequestContext): Promise<BusinessSettings> {
  return ctx
    .repo(BusinessSettings)
    .findOneOrFail({ where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
}

/** Writes checked changes (see paymentSettingsErrors) for the context's business and mode, in the caller's transaction. */
export async function writePaymentSettings(
  tx: RequestContext,
  changes: PaymentSettingsChanges,
): Promise<BusinessSettings> {
  const settings = await paymentSettingsOf(tx);
  if (changes.serverToServerCharging !== undefined) settings.serverToServerCharging = changes.serverToServerCharging;
  if (changes.cardFeeBps !== undefined) settings.cardFeeBps = changes.cardFeeBps;
  if (changes.cardFeeFixedMinor !== undefined) settings.cardFeeFixedMinor = changes.cardFeeFixedMinor;
  if (changes.disputeFeeMinor !== undefined) settings.disputeFeeMinor = changes.disputeFeeMinor;
  return tx.repo(BusinessSettings).save(settings);
}

/**
 * Server-to-server card charging of the context's mode. Operators switch it in either mode (the
 * CLI); a dashboard OWNER may switch it in test mode only.
 */
export async function setServerToServerCharging(ctx: RequestContext, enabled: boolean): Promise<BusinessSettings> {
  if (ctx.actor.kind !== 'system') {
    ctx.requireDashboardRole(Role.OWNER);
    if (ctx.livemode) throw forbidden('Only an operator can switch server-to-server charging in live mode');
  }
  return inTransaction(ctx, (tx) => writePaymentSettings(tx, { serverToServerCharging: enabled }));
}

/** The payments settings `tessera business update` changes; written only when the update names one. */
export const paymentProductSettings: ProductSettings<PaymentSettingsChanges> = {
  errors: paymentSettingsErrors,
  async apply(tx, _business, { serverToServerCharging, cardFeeBps, cardFeeFixedMinor, disputeFeeMinor }) {
    const changes = { serverToServerCharging, cardFeeBps, cardFeeFixedMinor, disputeFeeMinor };
    if (Object.values(changes).some((value) => value !== undefined)) await writePaymentSettings(tx, changes);
  },
};
