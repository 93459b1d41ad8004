import type { BridgeSettings } from '../../config';
import { DomainError, ErrorCode } from '../../domain/shared/errors';
import {
  BridgeApiError,
  BridgeClient,
  BridgeExternalAccount,
  BridgeList,
  BridgeLiquidationAddress,
  BridgeTransfer,
  BridgeVirtualAccount,
  BridgeWallet,
  bridgeAmountOf,
} from './bridge-client';
import {
  OpenedDepositAccount,
  TreasuryDestination,
  TreasuryPayoutSubmission,
  TreasuryRail,
  TreasuryRailAcceptance,
  TreasuryRailOutcome,
} from './port';

/** Bridge's provider name: its webhooks are at `POST /providers/bridge/webhooks`. */
export const BRIDGE_PROVIDER = 'bridge';

/** The chain of the Bridge custodial wallet each Tessera wallet's money is held in (https://apidocs.bridge.xyz, Bridge Wallets: base or solana). */
export const BRIDGE_WALLET_CHAIN = 'solana';

/** The chain a USDC wallet's liquidation address receives on. */
export const BRIDGE_USDC_CHAIN = 'ethereum';

/**
 * What each Tessera currency is at Bridge: the virtual account's source currency (fiat) and the
 * stablecoin the Bridge wallet holds it in (USDB for dollars, EURC for euros), 1:1.
 */
const CURRENCIES: Record<string, { kind: 'fiat' | 'crypto'; source: string; held: string }> = {
  USD: { kind: 'fiat', source: 'usd', held: 'usdb' },
  EUR: { kind: 'fiat', source: 'eur', held: 'eurc' },
  USDC: { kind: 'crypto', source: 'usdc', held: 'usdb' },
};

/** Bridge's transfer states that end it (https://apidocs.bridge.xyz, transfers: states). */
export const BRIDGE_COMPLETED_STATES = new Set(['payment_processed']);
export const BRIDGE_FAILED_STATES = new Set(['returned', 'error', 'canceled', 'refunded', 'undeliverable']);

/** A transfer's state as a rail outcome: null while it is still under way. */
export function outcomeOfTransferState(state: string): TreasuryRailOutcome | null {
  if (BRIDGE_COMPLETED_STATES.has(state)) return { status: 'COMPLETED' };
  if (BRIDGE_FAILED_STATES.has(state)) return { status: 'FAILED', reason: `bridge_transfer_${state}` };
  return null;
}

/** How many pages of a customer's transfers the lookup by Tessera's reference reads, newest first (100 each). */
const LOOKUP_PAGES = 10;
const PAGE = 100;

/**
 * Bridge as the treasury rail (https://apidocs.bridge.xyz). An end-user is a Bridge customer (made
 * by its KYC link, src/providers/kyc/bridge.ts); each Tessera wallet is a Bridge custodial wallet
 * of that customer, fed by a virtual account (USD: ACH / wire details; EUR: an IBAN) or a
 * liquidation address (USDC) whose destination is that wallet, so Bridge's deposit instructions are
 * the wallet's. A treasury payout is a transfer out of the Bridge wallet on behalf of the customer,
 * keyed by Tessera's payout id (`Idempotency-Key` and `client_reference_id`); before creating one
 * the rail asks Bridge for a transfer of that reference, so a payout whose first answer was lost
 * (a timeout, a crash) is found, never sent twice. Its outcome arrives by Bridge's webhooks
 * (bridge-webhooks.ts). Every Bridge id is derived from a Tessera id, so asking again is the same
 * object at Bridge.
 */
export class BridgeTreasuryRail implements TreasuryRail {
  readonly name = BRIDGE_PROVIDER;
  readonly currencies = Object.keys(CURRENCIES);
  /** Its client of Bridge's API (also reconciliation's: bridge-reconciliation.ts). */
  readonly client: BridgeClient;

  constructor(settings: Pick<BridgeSettings, 'apiKey' | 'apiBase'>, client?: BridgeClient) {
    this.client = client ?? new BridgeClient(settings);
  }

  dispatchOf(): 'auto' {
    return 'auto';
  }

  async openDepositAccount(request: {
    walletId: string;
    currency: string;
    holderName: string;
    endUserRef: string | null;
  }): Promise<OpenedDepositAccount> {
    return this.openAccount(request).catch((error: unknown) => {
      // Bridge refused (a customer it has not approved, a product the account lacks): nothing was opened here.
      if (error instanceof BridgeApiError)
        throw new DomainError(ErrorCode.UNPROCESSABLE, `Bridge did not open the deposit account: ${error.message}`);
      throw error;
    });
  }

  private async openAccount({
    walletId,
    currency,
    endUserRef,
  }: {
    walletId: string;
    currency: string;
    endUserRef: string | null;
  }): Promise<OpenedDepositAccount> {
    const spec = CURRENCIES[currency];
    if (!spec) throw new DomainError(ErrorCode.VALIDATION_ERROR, `Bridge holds no ${currency} wallets`);
    if (!endUserRef)
      throw new DomainError(
        ErrorCode.UNPROCESSABLE,
        'This end-user has no Bridge customer: its KYC must be approved through Bridge before a wallet opens',
      );
    const customer = encodeURIComponent(endUserRef);
    const wallet = await this.client.post<BridgeWallet>(
      `/customers/${customer}/wallets`,
      { chain: BRIDGE_WALLET_CHAIN },
      `tessera-wallet-${walletId}`,
    );
    const refs = {
      customerId: endUserRef,
      bridgeWalletId: wallet.id,
      bridgeWalletChain: wallet.chain,
      bridgeWalletCurrency: spec.held,
    };
    if (spec.kind === 'crypto') {
      const liquidation = await this.client.post<BridgeLiquidationAddress>(
        `/customers/${customer}/liquidation_addresses`,
        {
          chain: BRIDGE_USDC_CHAIN,
          currency: spec.source,
          bridge_wallet_id: wallet.id,
          destination_payment_rail: wallet.chain,
          destination_currency: spec.held,
        },
        `tessera-liquidation-${walletId}`,
      );
      return {
        accountNumber: null,
        routingNumber: null,
        iban: null,
        bankName: null,
        accountType: null,
        chain: liquidation.chain,
        address: liquidation.address,
        instructions: {
          method: 'crypto',
          asset: 'USDC',
          chain: liquidation.chain,
          address: liquidation.address,
          memo: null,
          note: `Send only USDC on ${liquidation.chain} to this address`,
        },
        providerRefs: { ...refs, liquidationAddressId: liquidation.id },
      };
    }
    const account = await this.client.post<BridgeVirtualAccount>(
      `/customers/${customer}/virtual_accounts`,
      {
        source: { currency: spec.source },
        destination: { currency: spec.held, payment_rail: wallet.chain, bridge_wallet_id: wallet.id },
      },
      `tessera-virtual-account-${walletId}`,
    );
    const deposit = account.source_deposit_instructions;
    const isIban = Boolean(deposit.iban);
    return {
      accountNumber: isIban ? null : (deposit.bank_account_number ?? null),
      routingNumber: isIban ? null : (deposit.bank_routing_number ?? null),
      iban: deposit.iban ?? null,
      bankName: deposit.bank_name ?? null,
      accountType: isIban ? 'iban' : 'checking',
      chain: null,
      address: null,
      instructions: {
        method: 'bank_transfer',
        scheme: (deposit.payment_rails ?? []).join(', ') || (isIban ? 'sepa' : 'ach_push, wire'),
        beneficiaryName: deposit.bank_beneficiary_name ?? deposit.account_holder_name ?? null,
        bankAddress: deposit.bank_address ?? null,
        bic: deposit.bic ?? null,
        reference: deposit.deposit_message ?? null,
        note: `Send ${currency} to these details (Bridge credits this wallet)`,
      },
      providerRefs: { ...refs, virtualAccountId: account.id },
    };
  }

  async submit(submission: TreasuryPayoutSubmission): Promise<TreasuryRailAcceptance> {
    const refs = submission.walletRefs;
    if (!refs?.customerId || !refs.bridgeWalletId)
      throw new Error(`treasury payout ${submission.payoutId}: its wallet has no Bridge account`);
    // Asked first: a transfer of this payout that Bridge made although its answer was lost.
    const found = await this.transferOf(refs.customerId, submission.payoutId);
    if (found) return acceptanceOf(found);
    let destination: Record<string, unknown>;
    try {
      destination = await this.destinationOf(submission, refs.customerId);
    } catch (error) {
      return refusedBy(error, submission.payoutId);
    }
    const transfer = await this.client
      .post<BridgeTransfer>(
        '/transfers',
        {
          client_reference_id: submission.payoutId,
          amount: bridgeAmountOf(submission.amountMinor, submission.currency),
          on_behalf_of: refs.customerId,
          source: {
            payment_rail: refs.bridgeWalletChain ?? BRIDGE_WALLET_CHAIN,
            currency: refs.bridgeWalletCurrency,
            bridge_wallet_id: refs.bridgeWalletId,
          },
          destination,
        },
        submission.payoutId,
      )
      .catch((error: unknown) => refusedBy(error, submission.payoutId));
    return 'callback' in transfer ? transfer : acceptanceOf(transfer);
  }

  /**
   * The status poll: the transfer Bridge made for the payout, read by its id (`GET
   * /v0/transfers/{transferID}`, https://apidocs.bridge.xyz, transfers: get a transfer), as its
   * final outcome; null while it is under way, or when the transfer is not this payout's (its
   * `client_reference_id` is another), or Bridge has no such transfer (404). A payout Bridge refused
   * at once (`refused:…`) was failed then and is never asked about.
   */
  async outcomeOf({ payoutId, providerRef }: { payoutId: string; providerRef: string }) {
    if (providerRef.startsWith('refused:')) return null;
    let transfer: BridgeTransfer;
    try {
      transfer = await this.client.get<BridgeTransfer>(`/transfers/${encodeURIComponent(providerRef)}`);
    } catch (error) {
      if (error instanceof BridgeApiError && error.status === 404) return null;
      throw error;
    }
    if (transfer.client_reference_id !== payoutId) return null;
    return outcomeOfTransferState(transfer.state);
  }

  /** The transfer Bridge has for Tessera's payout id (its `client_reference_id`), newest pages first. */
  async transferOf(customerId: string, payoutId: string): Promise<BridgeTransfer | null> {
    let after: string | undefined;
    for (let page = 0; page < LOOKUP_PAGES; page++) {
      const list = await this.client.get<BridgeList<BridgeTransfer>>(
        `/customers/${encodeURIComponent(customerId)}/transfers`,
        { limit: PAGE, starting_after: after },
      );
      const match = list.data.find((transfer) => transfer.client_reference_id === payoutId);
      if (match) return match;
      if (list.data.length < PAGE) return null;
      after = list.data[list.data.length - 1].id;
    }
    return null;
  }

  /** Where the transfer goes, as Bridge takes it: a bank account becomes an external account of the customer. */
  private async destinationOf(submission: TreasuryPayoutSubmission, customerId: string) {
    const destination: TreasuryDestination = submission.destination;
    if (destination.type === 'crypto')
      return { payment_rail: destination.chain, currency: 'usdc', to_address: destination.address };
    if (destination.type === 'mobile_money')
      throw new BridgeApiError(400, 'destination_not_supported', 'Bridge does not pay out to mobile money');
    const iban = submission.currency === 'EUR';
    const external = await this.client.post<BridgeExternalAccount>(
      `/customers/${encodeURIComponent(customerId)}/external_accounts`,
      iban
        ? {
            currency: 'eur',
            account_type: 'iban',
            account_owner_name: destination.accountName,
            account_owner_type: 'individual',
            bank_name: destination.bankName ?? undefined,
            iban: {
              account_number: destination.accountNumber,
              bic: destination.bankCode,
              country: destination.country,
            },
          }
        : {
            currency: 'usd',
            account_type: 'us',
            account_owner_name: destination.accountName,
            account_owner_type: 'individual',
            bank_name: destination.bankName ?? undefined,
            account: {
              account_number: destination.accountNumber,
              routing_number: destination.routingNumber ?? destination.bankCode,
              checking_or_savings: 'checking',
            },
          },
      `tessera-external-account-${submission.payoutId}`,
    );
    return { payment_rail: iban ? 'sepa' : 'ach', currency: iban ? 'eur' : 'usd', external_account_id: external.id };
  }
}

/** A transfer Bridge holds: finished already (its outcome at once), or under way (its webhooks will tell). */
function acceptanceOf(transfer: BridgeTransfer): TreasuryRailAcceptance {
  const outcome = outcomeOfTransferState(transfer.state);
  return { providerRef: transfer.id, callback: outcome ? { outcome, afterMs: 0 } : null };
}

/** Bridge refused the payout (a 4xx: a bad account, a rail it cannot use): the payout fails and its debit is reversed. */
function refusedBy(error: unknown, payoutId: string): TreasuryRailAcceptance {
  if (!(error instanceof BridgeApiError)) throw error;
  return {
    providerRef: `refused:${payoutId}`,
    callback: { outcome: { status: 'FAILED', reason: `bridge_refused_${error.code}` }, afterMs: 0 },
  };
}
