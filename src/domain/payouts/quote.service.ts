import { FxOffer, FxPairNotQuoted, FxQuoteRequest } from '../../providers/fx/port';
import { ProviderRegistry } from '../../providers/registry';
import { ALL_ROLES, RequestContext, WRITE_ROLES } from '../shared/context';
import { convertMinor, divideRounded, formatDecimal } from '../shared/decimal';
import { validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { exponentOf, normalizeCurrency } from '../shared/money';
import { findOwned } from '../shared/tenancy';
import { CreateQuoteCommand, RateQuery } from './payout.commands';
import { PayoutQuote, PayoutRailKind } from './payout.entities';
import { QUOTE_TTL_SECONDS } from './payouts.settings';

/** A conversion priced but not stored (a payout made without a quote stores its own). */
export interface QuoteTerms {
  amount: bigint;
  currency: string;
  destinationCurrency: string;
  dstAmount: bigint;
  rate: string;
  serviceFee: bigint;
  country: string;
  rail: PayoutRailKind;
}

/** A conversion's rate now and its service fee, valid as long as a quote would be (not stored). */
export interface IndicativeRate {
  from: string;
  to: string;
  /** Units of `to` per unit of `from`, spread included, 8 decimals. */
  rate: string;
  serviceFeeBps: number;
  expiresAt: Date;
}

/**
 * Payout quotes: how much the recipient receives for an amount of the wallet's currency, at the FX
 * provider's rate, and the service fee. The rounding rules (docs/payouts.md): the rate has 8
 * decimals; the destination amount is rounded down to the destination currency's minor unit; the
 * service fee is rounded up to the source currency's minor unit. Exact integer arithmetic only.
 */
export class QuoteService {
  constructor(private readonly providers: ProviderRegistry) {}

  async create(ctx: RequestContext, command: CreateQuoteCommand): Promise<PayoutQuote> {
    ctx.requireRole(...WRITE_ROLES);
    const terms = await this.price(ctx, command);
    return ctx.repo(PayoutQuote).save(
      ctx.repo(PayoutQuote).create({
        ...terms,
        businessId: ctx.requireBusiness(),
        livemode: ctx.livemode,
        expiresAt: new Date(Date.now() + QUOTE_TTL_SECONDS * 1000),
      }),
    );
  }

  async get(ctx: RequestContext, quoteId: string): Promise<PayoutQuote> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, PayoutQuote, quoteId, 'Quote');
  }

  /** The rate and fee of a conversion now, from the FX provider payouts use (`GET /v1/rates`). */
  async rate(ctx: RequestContext, query: RateQuery): Promise<IndicativeRate> {
    ctx.requireRole(...ALL_ROLES);
    const from = normalizeCurrency(query.from, 'from');
    const to = normalizeCurrency(query.to, 'to');
    const offer = await this.offer(ctx, { sourceCurrency: from, destinationCurrency: to, rail: query.rail }, 'to');
    return {
      from,
      to,
      rate: formatDecimal(offer.rate),
      serviceFeeBps: offer.serviceFeeBps,
      expiresAt: new Date(Date.now() + QUOTE_TTL_SECONDS * 1000),
    };
  }

  /** The terms of a conversion now, from the FX provider of the context's mode. */
  async price(ctx: RequestContext, command: CreateQuoteCommand): Promise<QuoteTerms> {
    const currency = normalizeCurrency(command.currency);
    const destinationCurrency = normalizeCurrency(command.destinationCurrency, 'destinationCurrency');
    if (command.amount <= 0n) throw validationError({ amount: ['must be greater than zero'] });
    if (command.rail !== PayoutRailKind.CRYPTO && !command.country)
      throw validationError({ country: ['is required for this rail'] });
    const offer = await this.offer(
      ctx,
      { sourceCurrency: currency, destinationCurrency, rail: command.rail },
      'destinationCurrency',
    );
    const dstAmount = convertMinor(
      command.amount,
      offer.rate,
      exponentOf(currency),
      exponentOf(destinationCurrency),
      'down',
    );
    if (dstAmount <= 0n)
      throw validationError({
        amount: [`is too small: it converts to less than one minor unit of ${destinationCurrency}`],
      });
    const serviceFee = divideRounded(command.amount * BigInt(offer.serviceFeeBps), 10_000n, 'up');
    return {
      amount: command.amount,
      currency,
      destinationCurrency,
      dstAmount,
      rate: formatDecimal(offer.rate),
      serviceFee,
      country: command.country?.toUpperCase() ?? '',
      rail: command.rail,
    };
  }

  /**
   * The FX provider's offer for a conversion; a pair it does not quote is the input refused, on
   * `field` (the destination currency as the caller named it), not an error of the server.
   */
  private async offer(ctx: RequestContext, request: FxQuoteRequest, field: string): Promise<FxOffer> {
    try {
      return await this.providers.providerFor(ctx, 'fx').offer(request);
    } catch (error) {
      if (error instanceof FxPairNotQuoted)
        throw validationError({
          [field]: [FxPairNotQuoted.refusal(request.sourceCurrency, request.destinationCurrency)],
        });
      throw error;
    }
  }

  /**
   * The stored quote a payout names, checked against the payout: unknown, expired or not matching
   * is a field error on `quoteId` (never a 404: the quote is part of the payout's input).
   */
  async forPayout(
    ctx: RequestContext,
    quoteId: string,
    payout: { amount: bigint; currency: string; destinationCurrency: string; rail: PayoutRailKind; country: string },
  ): Promise<PayoutQuote> {
    const quote = isUuid(quoteId)
      ? await ctx
          .repo(PayoutQuote)
          .findOne({ where: { id: quoteId, businessId: ctx.requireBusiness(), livemode: ctx.livemode } })
      : null;
    if (!quote) throw validationError({ quoteId: ['is not a quote of this business and mode'] });
    if (quote.expiresAt.getTime() <= Date.now())
      throw validationError({ quoteId: ['has expired: ask for a new quote'] });
    const mismatches = [
      quote.amount !== payout.amount && 'amount',
      quote.currency !== payout.currency && 'currency',
      quote.destinationCurrency !== payout.destinationCurrency && "the recipient's currency",
      quote.rail !== payout.rail && "the recipient's rail",
      quote.country !== payout.country && "the recipient's country",
    ].filter(Boolean);
    if (mismatches.length > 0)
      throw validationError({ quoteId: [`does not match the payout's ${mismatches.join(', ')}`] });
    return quote;
  }

  /** The value of an amount in US cents at the mid rate (review thresholds, schedule caps), rounded half up. */
  async usdValue(ctx: RequestContext, amount: bigint, currency: string): Promise<bigint> {
    if (currency === 'USD') return amount;
    const rate = await this.providers.providerFor(ctx, 'fx').midRate(currency, 'USD');
    return convertMinor(amount, rate, exponentOf(currency), exponentOf('USD'), 'half-up');
  }
}
