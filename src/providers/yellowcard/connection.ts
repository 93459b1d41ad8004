import type { YellowcardSettings } from '../../config';
import { DomainError, ErrorCode } from '../../domain/shared/errors';
import { YELLOWCARD_UNAVAILABLE, YcChannel, YcNetwork, YcRate, YellowCardClient } from './client';

/** Yellow Card's provider name: its webhooks are at `POST /providers/yellowcard/webhooks`. */
export const YELLOWCARD_PROVIDER = 'yellowcard';

/** How long Yellow Card's rates are reused before they are asked for again. */
export const YELLOWCARD_RATES_TTL_MS = 60_000;

/** What the account can use: Yellow Card's channels and networks, as last read. */
export interface YellowCardCatalogue {
  channels: YcChannel[];
  networks: YcNetwork[];
  loadedAt: Date;
}

/**
 * One connection to Yellow Card per configuration, shared by the three kinds it serves (payout
 * rail, collection rail, FX): the signing client, the channels and networks (read at start and
 * again by the `refresh_provider_channels` cron task), and the rates (cached briefly).
 */
export class YellowCardConnection {
  readonly client: YellowCardClient;
  private catalogue: YellowCardCatalogue | null = null;
  private loading: Promise<YellowCardCatalogue> | null = null;
  private rates: { byCode: Map<string, YcRate>; at: number } | null = null;

  constructor(settings: YellowcardSettings, timeoutMs?: number) {
    this.client = new YellowCardClient(settings, timeoutMs);
  }

  /** Reads the channels and networks again (one read at a time); the last good catalogue stays on a failure. */
  refreshCatalogue(): Promise<YellowCardCatalogue> {
    this.loading ??= Promise.all([this.client.channels(), this.client.networks()])
      .then(([channels, networks]) => (this.catalogue = { channels, networks, loadedAt: new Date() }))
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  /**
   * The catalogue as last read. Never read yet (Yellow Card did not answer at start): a read is
   * started and the caller hears SERVICE_UNAVAILABLE (503), to retry in a moment.
   */
  currentCatalogue(): YellowCardCatalogue {
    if (this.catalogue) return this.catalogue;
    this.refreshCatalogue().catch(() => undefined);
    throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, YELLOWCARD_UNAVAILABLE);
  }

  /** The rates by currency code, asked again after YELLOWCARD_RATES_TTL_MS. */
  async currentRates(): Promise<Map<string, YcRate>> {
    if (this.rates && Date.now() - this.rates.at < YELLOWCARD_RATES_TTL_MS) return this.rates.byCode;
    const rates = await this.client.rates();
    this.rates = { byCode: new Map(rates.map((rate) => [rate.code.toUpperCase(), rate])), at: Date.now() };
    return this.rates.byCode;
  }

  /** Networks (active) serving a channel. */
  networksOf(catalogue: YellowCardCatalogue, channelId: string): YcNetwork[] {
    return catalogue.networks.filter(
      (network) => network.status === 'active' && network.channelIds.includes(channelId),
    );
  }
}

const connections = new WeakMap<YellowcardSettings, YellowCardConnection>();

/** The one connection of these settings (the same object for the payout rail, the collection rail and FX); its catalogue starts loading. */
export function yellowCardConnection(settings: YellowcardSettings): YellowCardConnection {
  let connection = connections.get(settings);
  if (!connection) {
    connections.set(settings, (connection = new YellowCardConnection(settings)));
    connection.refreshCatalogue().catch(() => undefined); // at start; the cron task and the first use try again
  }
  return connection;
}

/** A channel is usable when Yellow Card lists it active (and its API status, when given, active too). */
export const isActiveChannel = (channel: YcChannel) =>
  channel.status === 'active' && (channel.apiStatus === undefined || channel.apiStatus === 'active');
