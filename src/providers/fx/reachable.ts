import { DomainError, ErrorCode } from '../../domain/shared/errors';
import type { Decimal } from '../../domain/shared/decimal';
import { FxOffer, FxPairNotQuoted, FxProvider, FxQuoteRequest } from './port';

/** What a caller hears when the exchange-rate provider did not answer. */
export const FX_UNAVAILABLE = 'The exchange-rate provider could not be reached; try again in a moment';

/**
 * The FX provider as the domain calls it (`ProviderRegistry.providerFor`): a failure to get an
 * answer (the network, a timeout, a fault of the provider) is SERVICE_UNAVAILABLE (503: retry
 * later), never an unexpected error (500); the provider's own error is kept as the `cause`, for
 * the server's log. A pair it does not quote (FxPairNotQuoted) and Tessera's own refusals pass
 * unchanged: callers turn those into a refusal of the input.
 */
export class ReachableFx implements FxProvider {
  constructor(readonly provider: FxProvider) {}

  get name(): string {
    return this.provider.name;
  }

  offer(request: FxQuoteRequest): Promise<FxOffer> {
    return answered(() => this.provider.offer(request));
  }

  midRate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    return answered(() => this.provider.midRate(fromCurrency, toCurrency));
  }
}

async function answered<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof FxPairNotQuoted || error instanceof DomainError) throw error;
    throw Object.assign(new DomainError(ErrorCode.SERVICE_UNAVAILABLE, FX_UNAVAILABLE), { cause: error });
  }
}
