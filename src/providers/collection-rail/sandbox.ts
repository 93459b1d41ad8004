import { createHash } from 'node:crypto';
import { toMajor } from '../../domain/shared/money';
import { CollectionChannel, CollectionOpening, CollectionRail, CollectionRailReport, RailOpening } from './port';

/**
 * The sandbox's channels (docs/collections.md, docs/sandbox.md). Limits are per collection, in
 * minor units of the channel's currency. Channel ids (`sbx_ch_…`) and operator network ids
 * (`mtn-gh`, `safaricom-ke`, …) never look alike, so one is never taken for the other.
 */
export const SANDBOX_COLLECTION_CHANNELS: readonly CollectionChannel[] = Object.freeze([
  {
    id: 'sbx_ch_ng_bank',
    country: 'NG',
    currency: 'NGN',
    rail: 'bank',
    provider: 'sandbox-bank',
    networks: null,
    minAmount: 10_000n,
    maxAmount: 1_000_000_000n,
  },
  {
    id: 'sbx_ch_gh_momo',
    country: 'GH',
    currency: 'GHS',
    rail: 'momo',
    provider: 'sandbox-momo',
    networks: [
      { id: 'mtn-gh', name: 'MTN Mobile Money' },
      { id: 'vodafone-gh', name: 'Vodafone Cash' },
      { id: 'airteltigo-gh', name: 'AirtelTigo Money' },
    ],
    minAmount: 100n,
    maxAmount: 2_000_000n,
  },
  {
    id: 'sbx_ch_ke_momo',
    country: 'KE',
    currency: 'KES',
    rail: 'momo',
    provider: 'sandbox-momo',
    networks: [
      { id: 'safaricom-ke', name: 'M-Pesa' },
      { id: 'airtel-ke', name: 'Airtel Money' },
    ],
    minAmount: 1_000n,
    maxAmount: 15_000_000n,
  },
  {
    id: 'sbx_ch_za_eft',
    country: 'ZA',
    currency: 'ZAR',
    rail: 'eft',
    provider: 'sandbox-eft',
    networks: null,
    minAmount: 1_000n,
    maxAmount: 100_000_000n,
  },
] as CollectionChannel[]);

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Ten digits derived from the collection id: the same collection always gets the same virtual account. */
const accountNumberOf = (collectionId: string) => {
  const value = digest(`account:${collectionId}`).readBigUInt64BE(0) % 10_000_000_000n;
  return `99${value.toString().padStart(10, '0').slice(2)}`;
};

const formatMinor = (minor: bigint, currency: string) => `${currency} ${toMajor(minor, currency)}`;

/**
 * The sandbox collection rail: fixed channels, deterministic instructions, no network, no money.
 * A payment of exactly the collection's amount is received and settles; any other amount is
 * received and then fails with `amount_mismatch`.
 */
export class SandboxCollectionRail implements CollectionRail {
  readonly name = 'sandbox-collection-rail';

  channels(country?: string): CollectionChannel[] {
    return SANDBOX_COLLECTION_CHANNELS.filter((channel) => !country || channel.country === country).map((channel) => ({
      ...channel,
    }));
  }

  async open(opening: CollectionOpening): Promise<RailOpening> {
    const { channel, collectionId } = opening;
    const providerRef = `sbx_col_${digest(collectionId).toString('hex').slice(0, 20)}`;
    const accountName = `${opening.merchantName} via Tessera`.slice(0, 120);
    if (channel.rail === 'bank') {
      // A virtual account per collection: the account itself identifies the payment, no reference needed.
      return {
        providerRef,
        instructions: {
          kind: 'bank_transfer',
          bankName: 'Sandbox Bank',
          accountNumber: accountNumberOf(collectionId),
          accountName,
          reference: null,
        },
      };
    }
    if (channel.rail === 'momo') {
      const network = channel.networks?.find((item) => item.id === opening.customer.networkId)?.name ?? 'mobile money';
      return {
        providerRef,
        instructions: {
          kind: 'momo_prompt',
          phone: opening.customer.phone ?? '',
          prompt: `Approve the ${network} prompt on your phone to pay ${formatMinor(opening.amountMinor, opening.currency)} to ${opening.merchantName}.`,
        },
      };
    }
    // EFT: a shared collection account; the reference matches the payment to the collection.
    return {
      providerRef,
      instructions: {
        kind: 'hosted_page',
        bankName: 'Sandbox EFT Bank',
        accountNumber: '6200000001',
        accountName,
        reference: providerRef.slice(8, 20).toUpperCase(),
      },
    };
  }

  reportsForPayment(expected: bigint, amount: bigint): CollectionRailReport[] {
    if (amount !== expected)
      return [
        { kind: 'received', amount },
        { kind: 'failed', reason: 'amount_mismatch' },
      ];
    return [
      { kind: 'received', amount },
      { kind: 'settled', amount },
    ];
  }
}
