import { ProviderRegistry } from '../../providers/registry';
import { AccountKind, LedgerService, PostingLine } from '../ledger';
import { RequestContext } from '../shared/context';
import { DomainError, ErrorCode } from '../shared/errors';
import { divideRounded, formatDecimal } from '../shared/decimal';
import { convertAtRate } from '../shared/fx';
import { Collection } from './collection.entities';
import { COLLECTION_FEE_BPS, FX_RAIL_OF, SETTLEMENT_CURRENCY } from './collections.settings';

/** What a completed collection credits: USDC minor units (exponent 6) at `rate`. */
export interface SettlementTerms {
  /** USDC per unit of the collection's currency, spread included, 8 decimals. */
  rate: string;
  /** The collection's amount converted, rounded down to the USDC minor unit. */
  gross: bigint;
  /** COLLECTION_FEE_BPS of gross, rounded up to the USDC minor unit (never more than gross). */
  fee: bigint;
  /** gross − fee: what the wallet receives. */
  net: bigint;
}

/**
 * Settlement of collections to the business's USDC wallet (docs/collections.md, Settlement and
 * fees). Exact integer arithmetic only: the rate is the FX provider's offer for the collection's
 * currency to USDC at settlement time; the payer is never credited a fraction the rate does not give.
 */
export class CollectionSettlementService {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly ledger: LedgerService,
  ) {}

  /** The terms at the FX rate of now (an external call: made outside any transaction). */
  async price(ctx: RequestContext, collection: Collection): Promise<SettlementTerms> {
    const fx = this.providers.providerFor(ctx, 'fx');
    const offer = await fx.offer({
      sourceCurrency: collection.currency,
      destinationCurrency: SETTLEMENT_CURRENCY,
      rail: FX_RAIL_OF[collection.rail],
    });
    return settlementTerms(collection.amount, collection.currency, offer.rate, COLLECTION_FEE_BPS[collection.rail]);
  }

  /**
   * The settlement's one balanced journal transaction, in the caller's transaction (the one that
   * moved the collection to completed, so it is posted exactly once): the rail's clearing account
   * gives the converted amount, the wallet receives it less the fee, fees revenue the fee. All in
   * USDC: the rail converts and settles in USDC, so the local currency never enters the books.
   */
  async post(tx: RequestContext, collection: Collection, terms: SettlementTerms): Promise<void> {
    const clearing = await this.ledger.account(tx, {
      kind: AccountKind.PROVIDER_CLEARING,
      currency: SETTLEMENT_CURRENCY,
    });
    const wallet = await this.ledger.account(tx, {
      kind: AccountKind.MERCHANT_WALLET,
      currency: SETTLEMENT_CURRENCY,
      businessId: collection.businessId,
    });
    const lines: PostingLine[] = [{ account: clearing, amount: -terms.gross }];
    if (terms.net > 0n) lines.push({ account: wallet, amount: terms.net });
    if (terms.fee > 0n)
      lines.push({
        account: await this.ledger.account(tx, { kind: AccountKind.FEES_REVENUE, currency: SETTLEMENT_CURRENCY }),
        amount: terms.fee,
      });
    await this.ledger.move(tx, {
      kind: 'collection_settlement',
      referenceType: 'collection',
      referenceId: collection.id,
      description: `Collection settled: ${collection.amount} ${collection.currency} minor units at ${terms.rate}`,
      lines,
    });
  }
}

/** The settlement arithmetic on its own (docs/collections.md has a worked example). */
export function settlementTerms(
  amount: bigint,
  currency: string,
  rate: { units: bigint; scale: number },
  feeBps: number,
): SettlementTerms {
  const gross = convertAtRate(amount, currency, SETTLEMENT_CURRENCY, rate);
  if (gross <= 0n)
    throw new DomainError(
      ErrorCode.UNPROCESSABLE,
      `The collection converts to less than one USDC minor unit at ${formatDecimal(rate)}`,
    );
  const fee = divideRounded(gross * BigInt(feeBps), 10_000n, 'up');
  return { rate: formatDecimal(rate), gross, fee, net: gross - fee };
}
