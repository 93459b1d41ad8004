import { CheckoutService, CheckoutSessionSource, SessionCompleted } from '../checkout';
import { EventService } from '../events/event.service';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { FieldErrors, validationError } from '../shared/errors';
import { MAX_AMOUNT_MINOR } from '../shared/money';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned, lockOwned } from '../shared/tenancy';
import { CreateInvoiceCommand, InvoiceFilters } from './invoice.commands';
import { Invoice, InvoiceItem, InvoiceStatus } from './invoice.entity';
import { invoiceAllows, invoiceTransition } from './invoice.states';
import { InvoiceEvent, invoiceCreated, invoiceFinalized, invoicePaid, invoiceVoided } from './invoices.events';

/** An invoice's checkout session can be paid for this long after the invoice is sent. */
export const INVOICE_PAYABLE_DAYS = 90;

export const formatInvoiceNumber = (number: number) => `INV-${String(number).padStart(6, '0')}`;

/** The invoice's lines in minor units, every line that is not positive named at once (`items.0.unitAmount`). */
function linesOf(command: CreateInvoiceCommand): InvoiceItem[] {
  const { lines } = command;
  if (lines.kind === 'amount') {
    if (lines.amount <= 0n) throw validationError({ amount: ['must be greater than zero'] });
    const amount = lines.amount.toString();
    return [
      { description: command.description ?? 'Amount due', quantity: 1, unitAmountMinor: amount, amountMinor: amount },
    ];
  }
  const errors: FieldErrors = {};
  lines.items.forEach((item, index) => {
    if (item.unitAmount <= 0n) errors[`items.${index}.unitAmount`] = ['must be greater than zero'];
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return lines.items.map((item) => ({
    description: item.description,
    quantity: item.quantity,
    unitAmountMinor: item.unitAmount.toString(),
    amountMinor: (item.unitAmount * BigInt(item.quantity)).toString(),
  }));
}

/**
 * Invoices: created as DRAFT with the next number of the business and mode (sequential, no gaps,
 * safe under concurrency: the counter row is incremented under its lock in the creating
 * transaction), sent (OPEN) with a checkout session, PAID when that session is paid, or VOID.
 */
export class InvoiceService {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly events: EventService,
  ) {}

  async create(ctx: RequestContext, command: CreateInvoiceCommand): Promise<Invoice> {
    ctx.requireRole(...WRITE_ROLES);
    const items = linesOf(command);
    const totalAmount = items.reduce((sum, item) => sum + BigInt(item.amountMinor), 0n);
    if (totalAmount > MAX_AMOUNT_MINOR) throw validationError({ items: ['the total is too large'] });

    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      const [{ last_number: number }] = await tx.em.query<Array<{ last_number: number }>>(
        `INSERT INTO invoice_counters (business_id, livemode, last_number) VALUES ($1, $2, 1)
         ON CONFLICT (business_id, livemode) DO UPDATE SET last_number = invoice_counters.last_number + 1
         RETURNING last_number`,
        [businessId, tx.livemode],
      );
      const invoice = await tx.repo(Invoice).save(
        tx.repo(Invoice).create({
          businessId,
          livemode: tx.livemode,
          number,
          invoiceNumber: formatInvoiceNumber(number),
          status: InvoiceStatus.DRAFT,
          customerEmail: command.customerEmail,
          currency: command.currency,
          items,
          totalAmount,
          description: command.description,
          dueDate: command.dueDate,
          successUrl: command.successUrl,
          metadata: command.metadata,
        }),
      );
      await this.record(tx, invoiceCreated(invoice));
      return invoice;
    });
  }

  async get(ctx: RequestContext, id: string): Promise<Invoice> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, Invoice, id, 'Invoice');
  }

  async list(ctx: RequestContext, filters: InvoiceFilters, page: PageQuery): Promise<ListPage<Invoice>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, Invoice, 'invoice');
    if (filters.status) query.andWhere('invoice.status = :status', { status: filters.status });
    return paginate(query, 'invoice', page, { status: filters.status });
  }

  /**
   * Finalizes (sends) a DRAFT invoice: OPEN, with a checkout session for its total that the
   * customer pays on the hosted page. Sending an OPEN invoice again changes nothing.
   */
  async finalize(ctx: RequestContext, id: string): Promise<Invoice> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const invoice = await lockOwned(tx, Invoice, id, 'Invoice');
      const status = invoiceTransition(invoice.status, 'finalize');
      if (status === invoice.status) return invoice;
      const session = await this.checkout.open(tx, {
        amount: invoice.totalAmount,
        currency: invoice.currency,
        customerEmail: invoice.customerEmail,
        successUrl: invoice.successUrl,
        description: `Invoice ${invoice.invoiceNumber}${invoice.description ? `: ${invoice.description}` : ''}`,
        metadata: invoice.metadata,
        source: CheckoutSessionSource.INVOICE,
        sourceId: invoice.id,
        expiresAt: new Date((await this.checkout.now(tx)).getTime() + INVOICE_PAYABLE_DAYS * 24 * 3600 * 1000),
      });
      invoice.status = status;
      invoice.checkoutSessionId = session.id;
      invoice.checkoutUrl = this.checkout.urlOf(session);
      invoice.finalizedAt = new Date();
      await tx.repo(Invoice).save(invoice);
      await this.record(tx, invoiceFinalized(invoice, session.id));
      return invoice;
    });
  }

  /** Withdraws a DRAFT or OPEN invoice (its checkout session expires at once); a paid invoice cannot be voided. */
  async void(ctx: RequestContext, id: string): Promise<Invoice> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const invoice = await lockOwned(tx, Invoice, id, 'Invoice');
      const status = invoiceTransition(invoice.status, 'void');
      if (status === invoice.status) return invoice;
      if (invoice.checkoutSessionId) await this.checkout.withdraw(tx, invoice.checkoutSessionId);
      invoice.status = status;
      invoice.voidedAt = new Date();
      await tx.repo(Invoice).save(invoice);
      await this.record(tx, invoiceVoided(invoice));
      return invoice;
    });
  }

  /** Its checkout session was paid (`checkout.session-completed`, same transaction): PAID, and invoice.paid. */
  async markPaid(tx: RequestContext, { session, payment }: SessionCompleted): Promise<void> {
    const invoice = await lockOwned(tx, Invoice, session.sourceId!, 'Invoice');
    if (!invoiceAllows(invoice.status, 'pay')) return;
    invoice.status = invoiceTransition(invoice.status, 'pay');
    invoice.paymentId = payment.id;
    invoice.paidAt = new Date();
    await tx.repo(Invoice).save(invoice);
    await this.record(tx, invoicePaid(invoice, session.id, payment.id));
  }

  private async record(tx: RequestContext, event: InvoiceEvent): Promise<void> {
    await this.events.record(tx, event.type, event.data);
  }
}
