import { z } from 'zod';
import { CheckoutService } from '../checkout/checkout.service';
import { CheckoutSession, CheckoutSessionSource } from '../checkout/checkout-session.entity';
import { descriptionSchema, optionalUrlSchema } from '../checkout/inputs';
import { EventService } from '../events/event.service';
import { Payment } from '../payments/payment.entities';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, FieldErrors, notFound, validationError } from '../shared/errors';
import { MAX_AMOUNT_MINOR, normalizeCurrency, positiveMinor, toMajor } from '../shared/money';
import { keysetPage, offsetPage, OffsetPage, Page, PageRequest } from '../shared/pagination';
import { amountSchema, currencySchema, emailSchema, enumFilter, isUuid, metadataSchema, parseInput, required, pageParams } from '../../wire/validation';
import { Invoice, InvoiceItem, InvoiceStatus } from './invoice.entity';

/** An invoice's checkout session can be paid for this long after the invoice is sent. */
export const INVOICE_PAYABLE_DAYS = 90;

const itemSchema = z.object({
  description: z.string({ error: required() }).trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters'),
  quantity: z.number({ error: 'must be a whole number from 1 to 10000' }).int('must be a whole number from 1 to 10000').min(1, 'must be at least 1').max(10_000, 'must be at most 10000').optional(),
  unitAmount: amountSchema,
}, { error: 'must be an object with description, quantity and unitAmount' });

const createSchema = z.object({
  customerEmail: z.string({ error: required('the email address of the customer to bill') }).pipe(emailSchema),
  currency: currencySchema,
  items: z.array(itemSchema, { error: 'must be an array of items' }).min(1, 'must list at least one item').max(100, 'must list at most 100 items').optional(),
  amount: amountSchema.optional(),
  description: descriptionSchema,
  dueDate: z.string({ error: 'must be a date (YYYY-MM-DD)' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'must be a date (YYYY-MM-DD)')
    .refine((value) => value >= new Date().toISOString().slice(0, 10), 'must be today or later')
    .nullish(),
  successUrl: optionalUrlSchema,
  metadata: metadataSchema,
}, { error: 'must be a JSON object' });

const listSchema = z.object({
  ...pageParams,
  status: enumFilter(InvoiceStatus).optional(),
});

export const formatInvoiceNumber = (number: number) => `INV-${String(number).padStart(6, '0')}`;

/**
 * Invoices: created as DRAFT with the next number of the business and mode (sequential, no gaps,
 * safe under concurrency: the counter row is incremented under its lock in the creating
 * transaction), sent (OPEN) with a checkout session, PAID when that session is paid, or VOID.
 */
export class InvoiceService {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly events: EventService,
  ) {
    checkout.onSessionCompleted(CheckoutSessionSource.INVOICE, (tx, session, payment) => this.markPaid(tx, session, payment));
  }

  async create(ctx: RequestContext, input: unknown): Promise<Invoice> {
    ctx.requireRole(...WRITE_ROLES);
    const data = parseInput(createSchema, input ?? {});
    const currency = normalizeCurrency(data.currency);
    if ((data.items === undefined) === (data.amount === undefined)) {
      throw validationError({ _: ['send either items or amount (exactly one)'] });
    }
    const items: InvoiceItem[] = [];
    const errors: FieldErrors = {};
    if (data.items) {
      data.items.forEach((item, index) => {
        try {
          const unit = positiveMinor(item.unitAmount, currency, `items.${index}.unitAmount`);
          const quantity = item.quantity ?? 1;
          items.push({ description: item.description, quantity, unitAmountMinor: unit.toString(), amountMinor: (unit * BigInt(quantity)).toString() });
        } catch (error) {
          if (!(error instanceof DomainError) || !error.fieldErrors) throw error;
          Object.assign(errors, error.fieldErrors);
        }
      });
    } else {
      const amount = positiveMinor(data.amount!, currency);
      items.push({ description: data.description ?? 'Amount due', quantity: 1, unitAmountMinor: amount.toString(), amountMinor: amount.toString() });
    }
    if (Object.keys(errors).length > 0) throw validationError(errors);
    const totalAmount = items.reduce((sum, item) => sum + BigInt(item.amountMinor), 0n);
    if (totalAmount > MAX_AMOUNT_MINOR) throw validationError({ items: ['the total is too large'] });

    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      const [{ last_number: number }] = await tx.em.query(
        `INSERT INTO invoice_counters (business_id, livemode, last_number) VALUES ($1, $2, 1)
         ON CONFLICT (business_id, livemode) DO UPDATE SET last_number = invoice_counters.last_number + 1
         RETURNING last_number`,
        [businessId, tx.livemode],
      ) as Array<{ last_number: number }>;
      const invoice = await tx.repo(Invoice).save(tx.repo(Invoice).create({
        businessId, livemode: tx.livemode, number, invoiceNumber: formatInvoiceNumber(number), status: InvoiceStatus.DRAFT,
        customerEmail: data.customerEmail, currency, items, totalAmount, description: data.description ?? null, dueDate: data.dueDate ?? null,
        successUrl: data.successUrl ?? null, metadata: data.metadata ?? null,
      }));
      await this.events.record(tx, 'invoice.created', {
        invoiceId: invoice.id, invoiceNumber: invoice.invoiceNumber, status: invoice.status,
        totalAmount: toMajor(invoice.totalAmount, invoice.currency), currency: invoice.currency.toLowerCase(),
      });
      return invoice;
    });
  }

  async get(ctx: RequestContext, id: string): Promise<Invoice> {
    ctx.requireRole(...ALL_ROLES);
    return this.find(ctx, id);
  }

  async listPage(ctx: RequestContext, query: unknown): Promise<OffsetPage<Invoice>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(listSchema, query ?? {});
    return offsetPage(this.filtered(ctx, filters.status), filters.page, filters.limit);
  }

  async connection(ctx: RequestContext, input: unknown, request: PageRequest): Promise<Page<Invoice>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(listSchema, input ?? {});
    return keysetPage(this.filtered(ctx, filters.status), 'invoice', request, { status: filters.status });
  }

  /**
   * Finalizes (sends) a DRAFT invoice: OPEN, with a checkout session for its total that the
   * customer pays on the hosted page. Sending an OPEN invoice again changes nothing.
   */
  async finalize(ctx: RequestContext, id: string): Promise<Invoice> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const invoice = await this.lock(tx, (await this.find(tx, id)).id);
      if (invoice.status === InvoiceStatus.OPEN) return invoice;
      if (invoice.status !== InvoiceStatus.DRAFT) throw new DomainError(ErrorCode.CONFLICT, `A ${invoice.status} invoice cannot be sent`);
      const session = await this.checkout.open(tx, {
        amount: invoice.totalAmount, currency: invoice.currency, customerEmail: invoice.customerEmail, successUrl: invoice.successUrl,
        description: `Invoice ${invoice.invoiceNumber}${invoice.description ? `: ${invoice.description}` : ''}`, metadata: invoice.metadata,
        source: CheckoutSessionSource.INVOICE, sourceId: invoice.id, expiresAt: new Date(Date.now() + INVOICE_PAYABLE_DAYS * 24 * 3600 * 1000),
      });
      invoice.status = InvoiceStatus.OPEN;
      invoice.checkoutSessionId = session.id;
      invoice.checkoutUrl = this.checkout.urlOf(session);
      invoice.finalizedAt = new Date();
      await tx.repo(Invoice).save(invoice);
      await this.events.record(tx, 'invoice.finalized', {
        invoiceId: invoice.id, invoiceNumber: invoice.invoiceNumber, status: invoice.status, sessionId: session.id, checkoutUrl: invoice.checkoutUrl,
      });
      return invoice;
    });
  }

  /** Withdraws a DRAFT or OPEN invoice (its checkout session expires at once); a paid invoice cannot be voided. */
  async void(ctx: RequestContext, id: string): Promise<Invoice> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const invoice = await this.lock(tx, (await this.find(tx, id)).id);
      if (invoice.status === InvoiceStatus.VOID) return invoice;
      if (invoice.status === InvoiceStatus.PAID) throw new DomainError(ErrorCode.CONFLICT, 'A PAID invoice cannot be voided; refund its payment instead');
      if (invoice.checkoutSessionId) await this.checkout.withdraw(tx, invoice.checkoutSessionId);
      invoice.status = InvoiceStatus.VOID;
      invoice.voidedAt = new Date();
      await tx.repo(Invoice).save(invoice);
      await this.events.record(tx, 'invoice.voided', { invoiceId: invoice.id, invoiceNumber: invoice.invoiceNumber, status: invoice.status });
      return invoice;
    });
  }

  /** Its checkout session was paid (same transaction): PAID, and invoice.paid. */
  private async markPaid(tx: RequestContext, session: CheckoutSession, payment: Payment): Promise<void> {
    const invoice = await this.lock(tx, session.sourceId!);
    if (invoice.status !== InvoiceStatus.OPEN) return;
    invoice.status = InvoiceStatus.PAID;
    invoice.paymentId = payment.id;
    invoice.paidAt = new Date();
    await tx.repo(Invoice).save(invoice);
    await this.events.record(tx, 'invoice.paid', {
      invoiceId: invoice.id, invoiceNumber: invoice.invoiceNumber, sessionId: session.id, paymentId: payment.id,
    });
  }

  private async find(ctx: RequestContext, id: string): Promise<Invoice> {
    const invoice = isUuid(id) ? await ctx.repo(Invoice).findOne({ where: { id, businessId: ctx.requireBusiness(), livemode: ctx.livemode } }) : null;
    if (!invoice) throw notFound('Invoice');
    return invoice;
  }

  private async lock(tx: RequestContext, id: string): Promise<Invoice> {
    return tx.repo(Invoice).createQueryBuilder('invoice').setLock('pessimistic_write').where('invoice.id = :id', { id }).getOneOrFail();
  }

  private filtered(ctx: RequestContext, status: InvoiceStatus | undefined) {
    const query = ctx.repo(Invoice).createQueryBuilder('invoice')
      .where('invoice.business_id = :businessId AND invoice.livemode = :livemode', { businessId: ctx.requireBusiness(), livemode: ctx.livemode })
      .orderBy('invoice.created_at', 'DESC').addOrderBy('invoice.id', 'DESC');
    if (status) query.andWhere('invoice.status = :status', { status });
    return query;
  }
}
