import { BusinessSettings } from '../shared/business-settings.entity';
import { RequestContext } from '../shared/context';
import { FieldErrors } from '../shared/errors';
import { MAX_AMOUNT_MINOR } from '../shared/money';
import type { ProductSettings } from '../identity';

/** A quote is honoured this long after it is made (design section 8). */
export const QUOTE_TTL_SECONDS = 300;

/** Items of one batch (design section 8). */
export const MAX_BATCH_ITEMS = 1_000;

export const MAX_LABEL_LENGTH = 200;
export const MAX_REFERENCE_LENGTH = 200;

/**
 * The payouts product's settings of a business, per mode (on its business_settings row): the USD
 * value at or above which a payout is held for review. Operators set it with
 * `tessera business update <id> --payout-review-threshold-usd <amount|off>`.
 */
export interface PayoutSettingsChanges {
  payoutReviewThresholdUsdMinor?: bigint | null;
}

export function payoutSettingsErrors(changes: PayoutSettingsChanges): FieldErrors {
  const threshold = changes.payoutReviewThresholdUsdMinor;
  if (threshold === undefined || threshold === null) return {};
  if (threshold <= 0n) return { payoutReviewThresholdUsdMinor: ['must be greater than zero (or off)'] };
  if (threshold > MAX_AMOUNT_MINOR) return { payoutReviewThresholdUsdMinor: ['is too large'] };
  return {};
}

/** Writes checked changes for the context's business and mode, in the caller's transaction. */
export async function writePayoutSettings(tx: RequestContext, changes: PayoutSettingsChanges): Promise<void> {
  if (changes.payoutReviewThresholdUsdMinor === undefined) return;
  await tx
    .repo(BusinessSettings)
    .update(
      { businessId: tx.requireBusiness(), livemode: tx.livemode },
      { payoutReviewThresholdUsdMinor: changes.payoutReviewThresholdUsdMinor },
    );
}

/** The payouts settings `tessera business update` changes. */
export const payoutProductSettings: ProductSettings<PayoutSettingsChanges> = {
  errors: payoutSettingsErrors,
  apply: (tx, _business, { payoutReviewThresholdUsdMinor }) =>
    writePayoutSettings(tx, { payoutReviewThresholdUsdMinor }),
};

/** The review threshold of the context's business and mode, in US cents; null when off. */
export async function reviewThresholdOf(ctx: RequestContext): Promise<bigint | null> {
  const settings = await ctx.repo(BusinessSettings).findOne({
    select: { id: true, payoutReviewThresholdUsdMinor: true },
    where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode },
  });
  return settings?.payoutReviewThresholdUsdMinor ?? null;
}

/**
 * A live payout still SUBMITTED this long after the rail accepted it has its webhook late: the
 * status poll (`poll_late_payouts`, every 5 minutes) asks the rail about it.
 */
export const LATE_PAYOUT_AFTER_SECONDS = 10 * 60;
