import { toMajor } from '../../domain/shared/money';
import type { PayoutDestination, PayoutRail, PayoutSubmission, RailAcceptance, RailOutcome } from '../payout-rail/port';
import { YcPayment, YellowCardRefusal } from './client';
import { YellowCardConnection, YellowCardCatalogue, isActiveChannel } from './connection';

/** Yellow Card payment states that are final (docs.yellowcard.engineering, "Events"), lower-cased as its API sends them. */
const SETTLED_STATES = new Set(['complete']);
const FAILED_STATES = new Set(['failed', 'expired', 'cancelled']);

/**
 * The payout rail over Yellow Card's payments (money out to a bank account or a mobile-money
 * wallet). Tessera's payout id is the payment's `sequenceId`, Yellow Card's idempotency reference:
 * a submission first asks for the payment by sequence id (a retry after a crash or a lost answer
 * finds the one already made, never a second), creates it only when there is none, and accepts
 * Yellow Card's quote (`POST /payments/{id}/accept`) while it is awaiting approval. The outcome
 * comes later, by webhook (PAYMENT.COMPLETE / PAYMENT.FAILED / PAYMENT.EXPIRED) or the status poll
 * (`outcomeOf`). A payout Yellow Card cannot route or refuses outright fails at once (the ledger is
 * reversed); Yellow Card not answering is SERVICE_UNAVAILABLE, and the dispatch job tries again.
 */
export class YellowCardPayoutRail implements PayoutRail {
  readonly name = 'yellowcard';

  constructor(readonly connection: YellowCardConnection) {}

  holdFor(): 'none' | 'review' {
    return 'none';
  }

  dispatchOf(): 'auto' | 'manual' {
    return 'auto';
  }

  async submit(submission: PayoutSubmission): Promise<RailAcceptance> {
    const { client } = this.connection;
    let payment = await client.paymentBySequenceId(submission.payoutId);
    if (!payment) {
      const route = routeOf(this.connection, this.connection.currentCatalogue(), submission.destination);
      if ('refused' in route) return failedAtOnce(submission.payoutId, route.refused);
      try {
        payment = await client.createPayment({
          channelId: route.channelId,
          sequenceId: submission.payoutId,
          localAmount: Number(toMajor(submission.amountMinor, submission.currency)),
          reason: 'other',
          customerType: 'institution',
          forceAccept: false,
          sender: { businessName: 'Tessera payout', businessId: submission.payoutId },
          destination: route.destination,
        });
      } catch (error) {
        if (!(error instanceof YellowCardRefusal)) throw error;
        // Made meanwhile by another attempt (its answer lost): that one is the payout.
        payment = await client.paymentBySequenceId(submission.payoutId);
        if (!payment) return failedAtOnce(submission.payoutId, refusalReason(error));
      }
    }
    if (payment.status === 'pending_approval') payment = await this.accept(payment);
    return { providerRef: payment.id, callback: callbackOf(payment) };
  }

  /** The payout's final outcome at Yellow Card, asked by its sequence id (the status poll); null while it is not final. */
  async outcomeOf(payoutId: string): Promise<RailOutcome | null> {
    const payment = await this.connection.client.paymentBySequenceId(payoutId);
    if (!payment) return null;
    return outcomeOfStatus(payment.status, payment.errorCode);
  }

  /** Accepts the quote; a payment that moved on meanwhile (accepted by another attempt) is read again. */
  private async accept(payment: YcPayment): Promise<YcPayment> {
    try {
      return await this.connection.client.acceptPayment(payment.id);
    } catch (error) {
      if (!(error instanceof YellowCardRefusal)) throw error;
      return this.connection.client.payment(payment.id);
    }
  }
}

/** A Yellow Card status as Tessera's rail outcome: SETTLED, FAILED (with Yellow Card's error code), or null while not final. */
export function outcomeOfStatus(status: string, errorCode?: string | null): RailOutcome | null {
  const state = status.toLowerCase();
  if (SETTLED_STATES.has(state)) return { status: 'SETTLED' };
  if (FAILED_STATES.has(state))
    return { status: 'FAILED', reason: errorCode ? errorCode.toLowerCase() : `yellowcard_${state}` };
  return null;
}

function callbackOf(payment: YcPayment): RailAcceptance['callback'] {
  const outcome = outcomeOfStatus(payment.status, payment.errorCode);
  return outcome ? { outcome, afterMs: 0 } : null;
}

/** A payout Yellow Card will never make: failed at once, reversed in the ledger (its reference says it never reached Yellow Card). */
const failedAtOnce = (payoutId: string, reason: string): RailAcceptance => ({
  providerRef: `yc_refused_${payoutId}`,
  callback: { outcome: { status: 'FAILED', reason }, afterMs: 0 },
});

const refusalReason = (error: YellowCardRefusal) => `yellowcard_${error.code.replace(/Error$/, '').toLowerCase()}`;

type Route =
  | {
      channelId: string;
      destination: { accountNumber: string; accountType: 'bank' | 'momo'; networkId: string; accountName: string };
    }
  | { refused: string };

/**
 * The channel and network a destination goes by: an active `withdraw` channel of its country and
 * currency for its rail (bank or momo), and the network (bank or operator) serving that channel:
 * a bank by its code (or Yellow Card's network id, or its name), an operator by Yellow Card's
 * network id (what the collection channels list) or its code.
 */
export function routeOf(
  connection: YellowCardConnection,
  catalogue: YellowCardCatalogue,
  destination: PayoutDestination,
): Route {
  if (destination.rail === 'CRYPTO') return { refused: 'rail_not_supported' };
  const channelType = destination.rail === 'LOCAL_BANK' ? 'bank' : 'momo';
  const channels = catalogue.channels.filter(
    (channel) =>
      isActiveChannel(channel) &&
      channel.rampType === 'withdraw' &&
      channel.channelType === channelType &&
      channel.country.toUpperCase() === destination.country &&
      channel.currency.toUpperCase() === destination.currency,
  );
  const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();
  for (const channel of channels) {
    const networks = connection.networksOf(catalogue, channel.id);
    if (destination.rail === 'LOCAL_BANK') {
      const network =
        networks.find((item) => same(item.code, destination.bankCode) || same(item.id, destination.bankCode)) ??
        networks.find((item) => same(item.name, destination.bankName));
      if (network)
        return {
          channelId: channel.id,
          destination: {
            accountNumber: destination.accountNumber,
            accountType: 'bank',
            networkId: network.id,
            accountName: destination.accountName,
          },
        };
    } else {
      const network = networks.find(
        (item) => same(item.id, destination.networkId) || same(item.code, destination.networkId),
      );
      if (network)
        return {
          channelId: channel.id,
          destination: {
            accountNumber: destination.phone,
            accountType: 'momo',
            networkId: network.id,
            accountName: destination.accountName,
          },
        };
    }
  }
  return { refused: channels.length === 0 ? 'no_yellowcard_channel' : 'no_yellowcard_network' };
}
