import { EventNameOf } from '../events/catalog';
import { toMajor } from '../shared/money';
import { Dispute, Payment, PaymentFailureReason, Refund } from './payment.entities';

/** The payment.* events (interface document, Events), with their payloads built in one place. */
export const PaymentEvent = {
  CREATED: 'payment.created',
  COMPLETED: 'payment.completed',
  FAILED: 'payment.failed',
  SETTLED: 'payment.settled',
  REFUNDED: 'payment.refunded',
  DISPUTED: 'payment.disputed',
  DISPUTE_WON: 'payment.dispute_won',
  DISPUTE_LOST: 'payment.dispute_lost',
} as const;

export type PaymentEventType = EventNameOf<typeof PaymentEvent>;

/** payment.created: `amount` is a number (the documented payload), the others carry decimal strings. */
export const paymentCreated = (payment: Payment) => ({
  paymentId: payment.id,
  amount: Number(toMajor(payment.amount, payment.currency)),
  currency: payment.currency.toLowerCase(),
  status: payment.status,
});

export const paymentCompleted = (payment: Payment) => ({
  paymentId: payment.id,
  amount: toMajor(payment.amount, payment.currency),
  currency: payment.currency.toLowerCase(),
});

export const paymentFailed = (payment: Payment, reason: PaymentFailureReason) => ({ paymentId: payment.id, reason });

/** What a payment settling in another currency credited: `amount` of `currency` at `rate` (units per unit of the payment's currency). */
export interface SettlementConversion {
  currency: string;
  amount: bigint;
  rate: string;
}

export const paymentSettled = (
  payment: Payment,
  amounts: { net: bigint; fee: bigint; gross: bigint },
  settledAt: Date,
  conversion: SettlementConversion | null = null,
) => ({
  paymentId: payment.id,
  amount: toMajor(amounts.net, payment.currency),
  currency: payment.currency.toLowerCase(),
  settledAt: settledAt.toISOString(),
  fee: toMajor(amounts.fee, payment.currency),
  grossAmount: toMajor(amounts.gross, payment.currency),
  ...(conversion
    ? {
        settlement: {
          currency: conversion.currency.toLowerCase(),
          amount: toMajor(conversion.amount, conversion.currency),
          rate: conversion.rate,
        },
      }
    : {}),
});

export const paymentRefunded = (payment: Payment, refund: Refund) => ({
  paymentId: payment.id,
  amount: toMajor(refund.amount, payment.currency),
  currency: payment.currency.toLowerCase(),
  refundId: refund.id,
});

export const paymentDisputed = (payment: Payment, dispute: Dispute) => ({
  paymentId: payment.id,
  disputeId: dispute.id,
  disputeAmount: toMajor(dispute.amount, payment.currency),
  disputeFee: toMajor(dispute.fee, payment.currency),
  reason: dispute.reason,
});

export const disputeResolved = (payment: Payment, dispute: Dispute, won: boolean) => ({
  paymentId: payment.id,
  won,
  chargeAmount: toMajor(dispute.amount, dispute.currency),
});
