import { DomainError, ErrorCode } from '../../domain/shared/errors';
import { toMajor, toMinor } from '../../domain/shared/money';
import type {
  CollectionChannel,
  CollectionOpening,
  CollectionRail,
  CollectionRailReport,
  RailOpening,
} from '../collection-rail/port';
import { YcCollection, YellowCardRefusal } from './client';
import { YELLOWCARD_PROVIDER, YellowCardConnection, isActiveChannel } from './connection';

/**
 * The collection rail over Yellow Card's collections (money in by bank transfer or mobile money).
 * Its channels are Yellow Card's active `deposit` channels (Tessera's channel ids are Yellow Card's,
 * its network ids Yellow Card's networks), as last read (src/providers/yellowcard/connection.ts).
 * Opening submits a collection with Tessera's collection id as its `sequenceId` and accepts it; the
 * payer's instructions are Yellow Card's: the bank account (and reference) to pay into, or the
 * mobile-money prompt sent to the payer's phone. What happens next comes by webhook
 * (COLLECTION.COMPLETE / FAILED / EXPIRED: yellowcard-webhooks.ts).
 */
export class YellowCardCollectionRail implements CollectionRail {
  readonly name = 'yellowcard';

  constructor(private readonly connection: YellowCardConnection) {}

  channels(country?: string): CollectionChannel[] {
    const catalogue = this.connection.currentCatalogue();
    return catalogue.channels
      .filter(
        (channel) =>
          isActiveChannel(channel) &&
          channel.rampType === 'deposit' &&
          (channel.channelType === 'bank' || channel.channelType === 'momo') &&
          (!country || channel.country.toUpperCase() === country),
      )
      .map((channel) => {
        const currency = channel.currency.toUpperCase();
        return {
          id: channel.id,
          country: channel.country.toUpperCase(),
          currency,
          rail: channel.channelType as 'bank' | 'momo',
          provider: YELLOWCARD_PROVIDER,
          networks:
            channel.channelType === 'momo'
              ? this.connection
                  .networksOf(catalogue, channel.id)
                  .map((network) => ({ id: network.id, name: network.name }))
              : null,
          minAmount: toMinor(String(channel.min), currency),
          maxAmount: toMinor(String(channel.max), currency),
        };
      });
  }

  async refreshChannels(): Promise<void> {
    await this.connection.refreshCatalogue();
  }

  async open(opening: CollectionOpening): Promise<RailOpening> {
    const { client } = this.connection;
    const { channel, customer } = opening;
    const momo = channel.rail === 'momo';
    let collection: YcCollection | null;
    try {
      collection = await client.createCollection({
        channelId: channel.id,
        sequenceId: opening.collectionId,
        localAmount: Number(toMajor(opening.amountMinor, opening.currency)),
        customerType: 'retail',
        forceAccept: false,
        recipient: {
          name: customer.name ?? opening.merchantName,
          country: channel.country,
          ...(customer.email ? { email: customer.email } : {}),
          ...(customer.phone ? { phone: customer.phone } : {}),
        },
        source: momo
          ? { accountType: 'momo', accountNumber: customer.phone ?? '', networkId: customer.networkId ?? '' }
          : { accountType: 'bank' },
      });
    } catch (error) {
      if (!(error instanceof YellowCardRefusal)) throw error;
      collection = await client.collectionBySequenceId(opening.collectionId);
      if (!collection)
        throw new DomainError(
          ErrorCode.UNPROCESSABLE,
          `Yellow Card refused the collection: ${error.message} (${error.code})`,
        );
    }
    if (collection.status === 'pending_approval') {
      collection = await client.acceptCollection(collection.id).catch((error: unknown) => {
        if (error instanceof YellowCardRefusal) return client.collection(collection!.id);
        throw error;
      });
    }
    if (momo) {
      const network = channel.networks?.find((item) => item.id === customer.networkId)?.name ?? 'mobile money';
      return {
        providerRef: collection.id,
        instructions: {
          kind: 'momo_prompt',
          phone: customer.phone ?? '',
          prompt: `Approve the ${network} prompt on your phone to pay ${opening.currency} ${toMajor(opening.amountMinor, opening.currency)} to ${opening.merchantName}.`,
        },
      };
    }
    const bank = collection.bankInfo;
    if (!bank)
      throw Object.assign(new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'Yellow Card gave no account to pay into'), {
        cause: new Error(`collection ${collection.id} has no bankInfo`),
      });
    return {
      providerRef: collection.id,
      instructions: {
        kind: 'bank_transfer',
        bankName: bank.name,
        accountNumber: bank.accountNumber,
        accountName: bank.accountName,
        reference: collection.reference ?? null,
      },
    };
  }

  /** Not used in live mode (only the sandbox's pay helper asks); Tessera's rule, the same as the sandbox's. */
  reportsForPayment(expected: bigint, amount: bigint): CollectionRailReport[] {
    return amount === expected
      ? [
          { kind: 'received', amount },
          { kind: 'settled', amount },
        ]
      : [
          { kind: 'received', amount },
          { kind: 'failed', reason: 'amount_mismatch' },
        ];
  }
}
