import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, FieldErrors, validationError } from '../shared/errors';
import { MAX_AMOUNT_MINOR, normalizeCurrency } from '../shared/money';
import { findOwned } from '../shared/tenancy';
import { V1Events, V1EventService } from '../webhooks';
import { RecipientDetails } from './payout.commands';
import { Payout, PayoutRailKind, PayoutStatus } from './payout.entities';
import { PayoutService, PreparedPayout } from './payout.service';
import { MAX_LABEL_LENGTH } from './payouts.settings';
import { RecipientService, maskTail, normalizeDetails } from './recipient.service';
import { V1Transfer, V1TransferRecipient } from './v1-transfer.entity';
import { CreateV1TransferCommand, V1TransferStatus } from './v1-transfer.commands';

/** The payout rail of every `/v1` transfer (to a bank account): its rate and fee are what `GET /v1/rates` quotes. */
export const V1_TRANSFER_RAIL = PayoutRailKind.LOCAL_BANK;

/** A `/v1` transfer as the surface shows it: its payout in `/v1` terms. */
export interface V1TransferView {
  id: string;
  status: V1TransferStatus;
  sourceAmount: bigint;
  sourceCurrency: string;
  destinationAmount: bigint;
  destinationCurrency: string;
  /** Destination units per source unit, spread included, 8 decimals. */
  rate: string;
  /** Minor units of the source currency, debited on top of `sourceAmount`. */
  fee: bigint;
  recipient: V1TransferRecipient;
  createdAt: Date;
}

const STATUS_OF: Record<PayoutStatus, V1TransferStatus> = {
  [PayoutStatus.CREATED]: V1TransferStatus.PENDING,
  [PayoutStatus.PENDING_REVIEW]: V1TransferStatus.PENDING,
  [PayoutStatus.SUBMITTED]: V1TransferStatus.PROCESSING,
  [PayoutStatus.SETTLED]: V1TransferStatus.COMPLETED,
  [PayoutStatus.FAILED]: V1TransferStatus.FAILED,
  [PayoutStatus.CANCELLED]: V1TransferStatus.CANCELLED,
};

/** The payouts domain's field names, as a transfer's command names them (errors answer in the client's words). */
const FIELD_OF: Record<string, string> = {
  amount: 'sourceAmount',
  currency: 'sourceCurrency',
  destinationCurrency: 'destinationCurrency',
  country: 'recipient.country',
  label: 'recipient.name',
  'details.country': 'recipient.country',
  'details.currency': 'destinationCurrency',
  'details.accountNumber': 'recipient.accountNumber',
  'details.bankCode': 'recipient.sortCode',
  'details.accountName': 'recipient.name',
};

/** The same error with its field errors renamed to the transfer's fields. */
function inTransferTerms(error: unknown): unknown {
  if (!(error instanceof DomainError) || !error.fieldErrors) return error;
  const renamed: FieldErrors = {};
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const name = FIELD_OF[field] ?? field;
    renamed[name] = [...(renamed[name] ?? []), ...messages];
  }
  return new DomainError(error.code, error.message, renamed);
}

/**
 * `/v1` transfers (design section 11): each is a payout underneath, so the recipient (one per
 * destination), the quote from the payouts' FX provider, the wallet debit of amount + fee in the
 * payout's transaction, the review hold, the dispatch job, the rail and the reversal on failure
 * are the payouts domain's. The recipient is a LOCAL_BANK payout recipient: `sort_code` is its
 * bank code, `name` its account name, the destination currency its currency. This service adds
 * only what `/v1` knows: the lowercase statuses, the read shape, and the events
 * `transfer.completed` and `transfer.failed`, each written in the transaction of the change.
 */
export class V1TransferService {
  constructor(
    private readonly recipients: RecipientService,
    private readonly payouts: PayoutService,
    private readonly v1Events: V1EventService,
  ) {}

  /**
   * Checks and prices everything before writing (the FX provider is called outside any
   * transaction), then saves the recipient, writes the payout with its debit and the transfer in
   * one transaction: too little balance (INSUFFICIENT_FUNDS) rolls all of it back.
   */
  async create(ctx: RequestContext, command: CreateV1TransferCommand): Promise<V1TransferView> {
    ctx.requireRole(...WRITE_ROLES);
    const { details, name } = this.destinationOf(command);
    const prepared: PreparedPayout = await this.payouts
      .prepareTo(ctx, '', details, {
        amount: command.sourceAmount,
        currency: command.sourceCurrency,
        quoteId: null,
        reference: null,
        metadata: null,
      })
      .catch((error: unknown) => {
        throw inTransferTerms(error);
      });
    const recipient = this.recipientOf(name, details);
    return inTransaction(ctx, async (tx) => {
      const saved = await this.recipients.create(tx, { label: name, details });
      const payout = await this.payouts.write(tx, { ...prepared, recipientId: saved.recipient.id }, null);
      const transfer = await tx
        .repo(V1Transfer)
        .save(
          tx
            .repo(V1Transfer)
            .create({ id: payout.id, businessId: payout.businessId, livemode: payout.livemode, recipient }),
        );
      return this.viewOf(transfer, payout);
    });
  }

  async get(ctx: RequestContext, id: string): Promise<V1TransferView> {
    ctx.requireRole(...ALL_ROLES);
    const transfer = await findOwned(ctx, V1Transfer, id, 'Transfer');
    return this.viewOf(transfer, await findOwned(ctx, Payout, transfer.id, 'Transfer'));
  }

  /** The transfer's destination as a LOCAL_BANK payout recipient, normalised; every bad field at once. */
  private destinationOf(command: CreateV1TransferCommand): { details: RecipientDetails; name: string } {
    const errors: FieldErrors = {};
    const name = command.recipient.name.trim();
    if (name.length === 0 || name.length > MAX_LABEL_LENGTH)
      errors['recipient.name'] = [`must be 1 to ${MAX_LABEL_LENGTH} characters`];
    const sortCode = command.recipient.sortCode.trim();
    if (!/^[A-Za-z0-9 -]{1,34}$/.test(sortCode))
      errors['recipient.sortCode'] = ['must be 1 to 34 letters, digits, spaces or dashes'];
    if (command.sourceAmount <= 0n) errors.sourceAmount = ['must be greater than zero'];
    else if (command.sourceAmount > MAX_AMOUNT_MINOR) errors.sourceAmount = [`must be at most ${MAX_AMOUNT_MINOR}`];
    const collect = <T>(work: () => T): T | null => {
      try {
        return work();
      } catch (error) {
        const renamed = inTransferTerms(error);
        if (!(renamed instanceof DomainError) || !renamed.fieldErrors) throw error;
        for (const [field, messages] of Object.entries(renamed.fieldErrors))
          errors[field] = [...(errors[field] ?? []), ...messages];
        return null;
      }
    };
    collect(() => normalizeCurrency(command.sourceCurrency, 'sourceCurrency'));
    const details = collect(() =>
      normalizeDetails({
        rail: V1_TRANSFER_RAIL,
        country: command.recipient.country,
        currency: command.destinationCurrency,
        bankCode: sortCode,
        bankName: '',
        accountNumber: command.recipient.accountNumber,
        accountName: name,
      }),
    );
    if (Object.keys(errors).length > 0 || !details) throw validationError(errors);
    return { details, name };
  }

  private recipientOf(name: string, details: RecipientDetails): V1TransferRecipient {
    if (details.rail !== 'LOCAL_BANK') throw new Error('A /v1 transfer goes to a bank account');
    return {
      name,
      sortCode: details.bankCode,
      accountNumber: maskTail(details.accountNumber),
      country: details.country,
    };
  }

  private viewOf(transfer: V1Transfer, payout: Payout): V1TransferView {
    return {
      id: transfer.id,
      status: STATUS_OF[payout.status],
      sourceAmount: payout.amount,
      sourceCurrency: payout.currency,
      destinationAmount: payout.dstAmount,
      destinationCurrency: payout.destinationCurrency,
      rate: payout.rate,
      fee: payout.serviceFee,
      recipient: transfer.recipient,
      createdAt: transfer.createdAt,
    };
  }

  /** A `/v1` transfer's payout settled or failed (in that transaction): `transfer.completed` / `transfer.failed`. */
  /** A payout moved (`payout.moved`, in its transaction): a transfer's settlement or failure is recorded as its `/v1` event. */
  async announce(tx: RequestContext, payout: Payout): Promise<void> {
    const name =
      payout.status === PayoutStatus.SETTLED
        ? V1Events.TRANSFER_COMPLETED
        : payout.status === PayoutStatus.FAILED
          ? V1Events.TRANSFER_FAILED
          : null;
    if (!name) return;
    const transfer = await tx.repo(V1Transfer).findOneBy({ id: payout.id });
    if (!transfer) return;
    await this.v1Events.record(tx, {
      businessId: payout.businessId,
      livemode: payout.livemode,
      name,
      data: v1TransferData(this.viewOf(transfer, payout)),
      alsoTo: [],
    });
  }
}

/** The `data` of a `transfer.*` event: the transfer as `GET /v1/transfers/:id` answers it, at the moment of the change. */
export function v1TransferData(transfer: V1TransferView): Record<string, unknown> {
  return {
    id: transfer.id,
    status: transfer.status,
    source_amount: Number(transfer.sourceAmount),
    source_currency: transfer.sourceCurrency,
    destination_amount: Number(transfer.destinationAmount),
    destination_currency: transfer.destinationCurrency,
    rate: Number(transfer.rate),
    fee: Number(transfer.fee),
    recipient: {
      name: transfer.recipient.name,
      sort_code: transfer.recipient.sortCode,
      account_number: transfer.recipient.accountNumber,
      country: transfer.recipient.country,
    },
    created_at: transfer.createdAt.toISOString(),
  };
}
