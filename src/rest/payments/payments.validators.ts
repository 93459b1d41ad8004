import { z } from 'zod';
import {
  Dispute,
  DisputeFilters,
  DisputeStatus,
  OpenDisputeCommand,
  Payment,
  PaymentFailureReason,
  PaymentFilters,
  PaymentSource,
  PaymentStatus,
  Refund,
  RefundCommand,
  ResolveDisputeCommand,
} from '../../domain/payments';
import { toMajor } from '../../domain/shared/money';
import { PageQuery } from '../../domain/shared/pagination';
import {
  disputeFilterFields,
  openDisputeRequestSchema,
  paymentFilterFields,
  refundRequestSchema,
  resolveDisputeRequestSchema,
} from '../../wire/payments';
import { pageParams } from '../../wire/validation';
import { currencyCodeSchema, decimalStringSchema, offsetListSchema, timestampSchema } from '../shared/schemas';

export { chargeCommandOf, chargeRequestSchema as chargeBodySchema } from '../../wire/payments';

// ---------------------------------------------------------------- requests

export const refundBodySchema = refundRequestSchema;
export const disputeBodySchema = openDisputeRequestSchema;
export const resolveDisputeBodySchema = resolveDisputeRequestSchema;
export const paymentListQuerySchema = z.object({ ...pageParams, ...paymentFilterFields });
export const disputeListQuerySchema = z.object({ ...pageParams, ...disputeFilterFields });

type Paged = { page?: number; limit?: number };
/** The documented page of REST lists: `page` from 1, `limit` 20 by default. */
export const offsetPageOf = (query: Paged): Extract<PageQuery, { kind: 'offset' }> => ({
  kind: 'offset',
  page: query.page ?? 1,
  limit: query.limit ?? 20,
});

export const paymentFiltersOf = ({
  status,
  reference,
  email,
  customerId,
  from,
  to,
}: z.output<typeof paymentListQuerySchema>): PaymentFilters => ({ status, reference, email, customerId, from, to });
export const disputeFiltersOf = ({ status }: z.output<typeof disputeListQuerySchema>): DisputeFilters => ({ status });

export const refundCommandOf = (paymentId: string, body: z.output<typeof refundBodySchema>): RefundCommand => ({
  paymentId,
  amount: body.amount,
  reason: body.reason ?? null,
});
export const openDisputeCommandOf = (
  paymentId: string,
  body: z.output<typeof disputeBodySchema>,
): OpenDisputeCommand => ({ paymentId, reason: body.reason });
export const resolveDisputeCommandOf = (
  disputeId: string,
  body: z.output<typeof resolveDisputeBodySchema>,
): ResolveDisputeCommand => ({ disputeId, won: body.won });

// ---------------------------------------------------------------- responses

export const paymentSchema = z
  .object({
    id: z.string(),
    paymentId: z.string().describe('The same as id (the documented name)'),
    object: z.literal('payment'),
    status: z.enum(PaymentStatus),
    amount: decimalStringSchema,
    currency: currencyCodeSchema,
    email: z.string(),
    customerId: z.string().nullable().describe('The stored customer profile the payment belongs to, if any'),
    card: z.object({
      brand: z.string(),
      last4: z.string(),
      expiryMonth: z.number().int().min(1).max(12),
      expiryYear: z.number().int().min(1000).max(9999).describe('Four-digit year'),
      country: z.string().describe('Issuing country (ISO 3166-1 alpha-2)'),
      fingerprint: z.string().describe('The same card has the same fingerprint (usable in the fraud block list)'),
    }),
    failureReason: z.enum(PaymentFailureReason).nullable(),
    failureMessage: z.string().nullable(),
    threeDSecure: z.enum(['pending', 'succeeded', 'failed']).nullable().describe('Set when 3-D Secure was required'),
    nextAction: z
      .object({
        type: z.literal('three_d_secure'),
        complete: z.string().describe('The call that completes the challenge'),
        redirectUrl: z
          .string()
          .nullable()
          .describe(
            "Where to send the payer to authenticate: the acquirer's page (live), which brings the payer back to Tessera, which completes the payment; null in the sandbox, whose challenge completes by itself",
          ),
      })
      .nullable()
      .describe('What the payment waits for (REQUIRES_ACTION only)'),
    source: z.enum(PaymentSource).describe('What created the payment'),
    sourceId: z.string().nullable(),
    amountRefunded: decimalStringSchema,
    amountDisputed: decimalStringSchema.describe('Charge amount taken back by an open or lost dispute'),
    fee: decimalStringSchema.describe('Fee kept at settlement'),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    livemode: z.boolean(),
    capturedAt: timestampSchema.nullable(),
    settledAt: timestampSchema.nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Payment' });

export const refundSchema = z
  .object({
    id: z.string(),
    refundId: z.string().describe('The same as id'),
    object: z.literal('refund'),
    paymentId: z.string(),
    amount: decimalStringSchema,
    currency: currencyCodeSchema,
    reason: z.string().nullable(),
    status: z
      .string()
      .describe(
        "Succeeded: booked; failed: the card acquirer refused it (nothing was booked) or failed it after it succeeded (reversed in the ledger, the amount back on the payment). A refund still waiting for the acquirer's answer is not shown. The sandbox books its refunds at once: always succeeded",
      ),
    livemode: z.boolean(),
    createdAt: timestampSchema,
  })
  .meta({ id: 'Refund' });

export const disputeSchema = z
  .object({
    id: z.string(),
    disputeId: z.string().describe('The same as id'),
    object: z.literal('dispute'),
    paymentId: z.string(),
    status: z.enum(DisputeStatus),
    amount: decimalStringSchema.describe('Charge amount debited from the wallet'),
    fee: decimalStringSchema.describe('Non-refundable dispute fee'),
    currency: currencyCodeSchema,
    reason: z.string(),
    livemode: z.boolean(),
    resolvedAt: timestampSchema.nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Dispute' });

export const paymentDetailSchema = paymentSchema
  .extend({ refunds: z.array(refundSchema), disputes: z.array(disputeSchema) })
  .meta({ id: 'PaymentDetail' });
export const refundResultSchema = refundSchema.extend({ payment: paymentSchema }).meta({ id: 'RefundResult' });
export const disputeResultSchema = disputeSchema.extend({ payment: paymentSchema }).meta({ id: 'DisputeResult' });
export const paymentListSchema = offsetListSchema(paymentSchema);
export const disputeListSchema = offsetListSchema(disputeSchema);
export const refundListSchema = z.object({ items: z.array(refundSchema), total: z.number().int() });

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const major = (minor: bigint, currency: string) => toMajor(minor, currency);

/** The payment resource of the REST face (docs/rest-api.md lists its fields). */
export const paymentJson = (payment: Payment): z.input<typeof paymentSchema> => ({
  id: payment.id,
  paymentId: payment.id,
  object: 'payment',
  status: payment.status,
  amount: major(payment.amount, payment.currency),
  currency: payment.currency.toLowerCase(),
  email: payment.email,
  customerId: payment.customerId,
  card: {
    brand: payment.cardBrand,
    last4: payment.cardLast4,
    expiryMonth: payment.cardExpiryMonth,
    expiryYear: payment.cardExpiryYear,
    country: payment.cardCountry,
    fingerprint: payment.cardFingerprint,
  },
  failureReason: payment.failureReason,
  failureMessage: payment.failureMessage,
  threeDSecure: payment.threeDSecure as z.input<typeof paymentSchema>['threeDSecure'],
  nextAction:
    payment.status === PaymentStatus.REQUIRES_ACTION
      ? {
          type: 'three_d_secure',
          complete: `POST /api/v1/business/payments/${payment.id}/3ds/complete`,
          redirectUrl: payment.authenticationUrl,
        }
      : null,
  source: payment.source,
  sourceId: payment.sourceId,
  amountRefunded: major(payment.amountRefunded, payment.currency),
  amountDisputed: major(payment.amountDisputed, payment.currency),
  fee: major(payment.feeAmount, payment.currency),
  metadata: payment.metadata,
  livemode: payment.livemode,
  capturedAt: iso(payment.capturedAt),
  settledAt: iso(payment.settledAt),
  createdAt: payment.createdAt.toISOString(),
  updatedAt: payment.updatedAt.toISOString(),
});

export const refundJson = (refund: Refund): z.input<typeof refundSchema> => ({
  id: refund.id,
  refundId: refund.id,
  object: 'refund',
  paymentId: refund.paymentId,
  amount: major(refund.amount, refund.currency),
  currency: refund.currency.toLowerCase(),
  reason: refund.reason,
  status: refund.status,
  livemode: refund.livemode,
  createdAt: refund.createdAt.toISOString(),
});

export const disputeJson = (dispute: Dispute): z.input<typeof disputeSchema> => ({
  id: dispute.id,
  disputeId: dispute.id,
  object: 'dispute',
  paymentId: dispute.paymentId,
  status: dispute.status,
  amount: major(dispute.amount, dispute.currency),
  fee: major(dispute.fee, dispute.currency),
  currency: dispute.currency.toLowerCase(),
  reason: dispute.reason,
  livemode: dispute.livemode,
  resolvedAt: iso(dispute.resolvedAt),
  createdAt: dispute.createdAt.toISOString(),
  updatedAt: dispute.updatedAt.toISOString(),
});
