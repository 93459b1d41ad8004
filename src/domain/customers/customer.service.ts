import { In } from 'typeorm';
import { CardDetails } from '../shared/card';
import { CAPTURED_PAYMENT_STATUSES, Payment } from '../payments';
import type { CardKeeper, SavedCardOf } from '../payments';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { EntityRows } from '../shared/rows';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned, lockOwned } from '../shared/tenancy';
import { conflictOnUniqueViolation } from '../shared/unique-violation';
import { peekCardToken, redeemCardToken } from '../tokens';
import { SaveCardRequest, SavedCard, VaultedCard } from '../../providers/card-acquirer/port';
import {
  AttachPaymentMethodCommand,
  CreateCustomerCommand,
  CustomerFilters,
  PaymentMethodRef,
  SaveCardCommand,
  UpdateCustomerCommand,
} from './customer.commands';
import { Customer, PaymentMethod } from './customer.entities';

/** The documented number of recent payments a customer shows. */
export const RECENT_PAYMENTS_LIMIT = 20;

/** A customer with what the retrieve operation shows beside the profile. */
export interface CustomerView {
  customer: Customer;
  /** Newest first. */
  paymentMethods: PaymentMethod[];
  /** The 20 most recent payments to the business in this mode, newest first. */
  recentPayments: Payment[];
}

const emailTaken = () =>
  new DomainError(ErrorCode.CONFLICT, 'A customer with this email already exists', {
    email: ['already has a customer profile'],
  });

/**
 * Customer profiles of a business and mode, the cards saved for them, and their payments.
 * Payments find their customer by `payments.customer_id`: new payments are linked by email when
 * they are made, and a new profile (or a changed email) links the earlier payments of that email.
 */
export class CustomerService {
  constructor(
    private readonly vault: (ctx: RequestContext, card: CardDetails) => Promise<VaultedCard>,
    /** Keeps a vaulted card with the mode's acquirer for the customer's later charges (payments' saveCardForCustomer). */
    private readonly keep: (ctx: RequestContext, request: SaveCardRequest) => Promise<SavedCard>,
  ) {}

  /** Creates a profile; 409 when the email already has one. Earlier payments of the email become its payments. */
  async create(ctx: RequestContext, data: CreateCustomerCommand): Promise<CustomerView> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      const exists = await tx
        .repo(Customer)
        .exists({ where: { businessId, livemode: tx.livemode, email: data.email } });
      if (exists) throw emailTaken();
      const customer = await tx.repo(Customer).save(
        tx.repo(Customer).create({
          businessId,
          livemode: tx.livemode,
          email: data.email,
          userId: data.userId ?? null,
          firstName: data.firstName ?? null,
          lastName: data.lastName ?? null,
          phoneNumber: data.phoneNumber ?? null,
          defaultPaymentMethodId: null,
        }),
      );
      await this.linkPayments(tx, customer);
      return this.view(tx, customer);
    }).catch(conflictOnUniqueViolation(emailTaken));
  }

  /**
   * The documented retrieve: 404 for an unknown id (or another business's or mode's), and for a
   * profile whose customer never paid this business in this mode. Having paid means a captured
   * payment (COMPLETED, SETTLED or REFUNDED), linked to the profile or made with its email before
   * the profile existed; declined, blocked or unfinished attempts do not count. The profile and
   * the rule are one statement, so a payment that commits in between cannot split them.
   */
  async get(ctx: RequestContext, customerId: string): Promise<CustomerView> {
    ctx.requireRole(...ALL_ROLES);
    const customer = isUuid(customerId)
      ? await newestFirst(ctx, Customer, 'customer')
          .andWhere('customer.id = :customerId', { customerId })
          .andWhere(
            `EXISTS (SELECT 1 FROM payments paid
                    WHERE paid.business_id = customer.business_id AND paid.livemode = customer.livemode
                      AND (paid.customer_id = customer.id OR (paid.customer_id IS NULL AND paid.email = customer.email))
                      AND paid.status IN (:...captured))`,
            { captured: CAPTURED_PAYMENT_STATUSES },
          )
          .getOne()
      : null;
    if (!customer) {
      throw new DomainError(
        ErrorCode.NOT_FOUND,
        'Customer not found: a customer can be retrieved once they have paid this business in this mode',
      );
    }
    return this.view(ctx, customer);
  }

  /** A saved card, when its customer is one `get` answers (NOT_FOUND otherwise, like an unknown card). */
  async getPaymentMethod(ctx: RequestContext, paymentMethodId: string): Promise<PaymentMethod> {
    ctx.requireRole(...ALL_ROLES);
    const method = await findOwned(ctx, PaymentMethod, paymentMethodId, 'Payment method');
    await this.get(ctx, method.customerId).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === ErrorCode.NOT_FOUND) throw notFound('Payment method');
      throw error;
    });
    return method;
  }

  /** Changes profile fields; null clears an optional one. A new email links that email's earlier payments. */
  async update(ctx: RequestContext, data: UpdateCustomerCommand): Promise<CustomerView> {
    ctx.requireRole(...WRITE_ROLES);
    await findOwned(ctx, Customer, data.customerId, 'Customer');
    return inTransaction(ctx, async (tx) => {
      const customer = await lockOwned(tx, Customer, data.customerId, 'Customer');
      const emailChanged = data.email !== undefined && data.email !== customer.email;
      if (emailChanged) {
        const taken = await tx
          .repo(Customer)
          .exists({ where: { businessId: customer.businessId, livemode: customer.livemode, email: data.email } });
        if (taken) throw emailTaken();
        customer.email = data.email!;
      }
      if (data.userId !== undefined) customer.userId = data.userId;
      if (data.firstName !== undefined) customer.firstName = data.firstName;
      if (data.lastName !== undefined) customer.lastName = data.lastName;
      if (data.phoneNumber !== undefined) customer.phoneNumber = data.phoneNumber;
      await tx.repo(Customer).save(customer);
      if (emailChanged) await this.linkPayments(tx, customer);
      return this.view(tx, customer);
    }).catch(conflictOnUniqueViolation(emailTaken));
  }

  /** Every profile of the business and mode, newest first, with its cards and recent payments; keyset cursors carry the email filter. */
  async list(ctx: RequestContext, filters: CustomerFilters, page: PageQuery): Promise<ListPage<CustomerView>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, Customer, 'customer');
    if (filters.email) query.andWhere('customer.email = :email', { email: filters.email });
    const customers = await paginate(query, 'customer', page, { email: filters.email ?? null });
    return {
      ...customers,
      items: await this.views(ctx, customers.items),
      cursorOf: (view) => customers.cursorOf(view.customer),
    };
  }

  /**
   * Saves a card for the customer, given as `card` (vaulted with the acquirer; the number is
   * never stored) or as a card `token` (consumed). The first card becomes the default.
   */
  async attachPaymentMethod(
    ctx: RequestContext,
    { customerId, source }: AttachPaymentMethodCommand,
  ): Promise<{ customer: Customer; paymentMethod: PaymentMethod }> {
    ctx.requireRole(...WRITE_ROLES);
    const owner = await findOwned(ctx, Customer, customerId, 'Customer');
    // The acquirer is asked outside the transaction: the card vaulted (or the token's card, not yet
    // used: the transaction uses it, and refuses it if another request did meanwhile), then kept
    // for the customer (Stripe: attached to the customer's Stripe Customer, made on its first save).
    const given = source.kind === 'card' ? await this.vault(ctx, source.card) : await peekCardToken(ctx, source.token);
    const saved = await this.keep(ctx, {
      card: given,
      customerRef: owner.acquirerCustomerRef,
      customerId: owner.id,
      email: owner.email,
    });
    return inTransaction(ctx, async (tx) => {
      const customer = await lockOwned(tx, Customer, customerId, 'Customer');
      if (source.kind === 'token') await redeemCardToken(tx, source.token);
      if (saved.customerRef && customer.acquirerCustomerRef !== saved.customerRef) {
        customer.acquirerCustomerRef = saved.customerRef;
        await tx.repo(Customer).save(customer);
      }
      const paymentMethod = await this.addCard(tx, customer, saved.card);
      return { customer, paymentMethod };
    });
  }

  /** Removes a saved card; when it was the default, the newest remaining card becomes the default. */
  async detachPaymentMethod(
    ctx: RequestContext,
    { customerId, paymentMethodId }: PaymentMethodRef,
  ): Promise<{ customer: Customer; paymentMethod: PaymentMethod }> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const customer = await lockOwned(tx, Customer, customerId, 'Customer');
      const paymentMethod = await this.findMethod(tx, customer, paymentMethodId);
      await tx.repo(PaymentMethod).delete({ id: paymentMethod.id });
      if (customer.defaultPaymentMethodId === paymentMethod.id) {
        const next = await tx
          .repo(PaymentMethod)
          .findOne({ where: { customerId: customer.id }, order: { createdAt: 'DESC', id: 'DESC' } });
        customer.defaultPaymentMethodId = next?.id ?? null;
        await tx.repo(Customer).save(customer);
      }
      return { customer, paymentMethod };
    });
  }

  /** Makes one of the customer's saved cards the default. */
  async setDefaultPaymentMethod(
    ctx: RequestContext,
    { customerId, paymentMethodId }: PaymentMethodRef,
  ): Promise<CustomerView> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const customer = await lockOwned(tx, Customer, customerId, 'Customer');
      customer.defaultPaymentMethodId = (await this.findMethod(tx, customer, paymentMethodId)).id;
      await tx.repo(Customer).save(customer);
      return this.view(tx, customer);
    });
  }

  /**
   * Saves a vaulted card for the customer with this email, creating the profile when there is
   * none; the first card saved becomes the default.
   */
  async saveCard(
    ctx: RequestContext,
    input: SaveCardCommand,
  ): Promise<{ customer: Customer; paymentMethod: PaymentMethod }> {
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      const inserted: Array<{ id: string }> = await tx.em.query(
        `INSERT INTO customers (business_id, livemode, email) VALUES ($1, $2, $3) ON CONFLICT (business_id, livemode, email) DO NOTHING RETURNING id`,
        [businessId, tx.livemode, input.email],
      );
      const customer = await tx
        .repo(Customer)
        .createQueryBuilder('customer')
        .setLock('pessimistic_write')
        .where('customer.business_id = :businessId AND customer.livemode = :livemode AND customer.email = :email', {
          businessId,
          livemode: tx.livemode,
          email: input.email,
        })
        .getOneOrFail();
      if (inserted.length > 0) await this.linkPayments(tx, customer);
      const paymentMethod = await this.addCard(tx, customer, input.card);
      return { customer, paymentMethod };
    });
  }

  // ---------------------------------------------------------------- batch reads (DataLoaders, lists)

  async customersByIds(ctx: RequestContext, ids: string[]): Promise<Customer[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return EntityRows.of(ctx, Customer).select(
      ctx,
      'customer',
      'WHERE customer.id = ANY($1::uuid[]) AND customer.business_id = $2 AND customer.livemode = $3',
      [valid, ctx.requireBusiness(), ctx.livemode],
    );
  }

  /** Saved cards of the customers, newest first. */
  async paymentMethodsOf(ctx: RequestContext, customerIds: string[]): Promise<PaymentMethod[]> {
    if (customerIds.length === 0) return [];
    return ctx.repo(PaymentMethod).find({
      where: { customerId: In(customerIds), businessId: ctx.requireBusiness(), livemode: ctx.livemode },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /**
   * The 20 most recent payments of each customer, newest first, in one query: payments linked to
   * the customer, and unlinked payments made with the customer's email.
   */
  async recentPaymentsOf(
    ctx: RequestContext,
    customers: Array<Pick<Customer, 'id' | 'email'>>,
  ): Promise<Map<string, Payment[]>> {
    const result = new Map<string, Payment[]>(customers.map((customer) => [customer.id, []]));
    if (customers.length === 0) return result;
    const rows: Array<{ customer_id: string; payment_id: string }> = await ctx.em.query(
      `SELECT c.id AS customer_id, p.id AS payment_id
         FROM unnest($1::uuid[], $2::text[]) AS c(id, email)
         CROSS JOIN LATERAL (
           SELECT payments.id, payments.created_at FROM payments
            WHERE payments.business_id = $3 AND payments.livemode = $4
              AND (payments.customer_id = c.id OR (payments.customer_id IS NULL AND payments.email = c.email))
            ORDER BY payments.created_at DESC, payments.id DESC
            LIMIT $5) p
        ORDER BY p.created_at DESC, p.id DESC`,
      [
        customers.map((customer) => customer.id),
        customers.map((customer) => customer.email),
        ctx.requireBusiness(),
        ctx.livemode,
        RECENT_PAYMENTS_LIMIT,
      ],
    );
    if (rows.length === 0) return result;
    const payments = await ctx
      .repo(Payment)
      .find({ where: { id: In([...new Set(rows.map((row) => row.payment_id))]) } });
    const byId = new Map(payments.map((payment) => [payment.id, payment]));
    for (const row of rows) {
      const payment = byId.get(row.payment_id);
      if (payment) result.get(row.customer_id)?.push(payment);
    }
    return result;
  }

  // ---------------------------------------------------------------- internals

  private async view(ctx: RequestContext, customer: Customer): Promise<CustomerView> {
    return (await this.views(ctx, [customer]))[0];
  }

  private async views(ctx: RequestContext, customers: Customer[]): Promise<CustomerView[]> {
    const ids = customers.map((customer) => customer.id);
    const [methods, recent] = await Promise.all([
      this.paymentMethodsOf(ctx, ids),
      this.recentPaymentsOf(ctx, customers),
    ]);
    return customers.map((customer) => ({
      customer,
      paymentMethods: methods.filter((method) => method.customerId === customer.id),
      recentPayments: recent.get(customer.id) ?? [],
    }));
  }

  /** Makes the email's payments that have no customer yet this customer's. */
  private async linkPayments(tx: RequestContext, customer: Customer): Promise<void> {
    await tx.em.query(
      `UPDATE payments SET customer_id = $1 WHERE business_id = $2 AND livemode = $3 AND email = $4 AND customer_id IS NULL`,
      [customer.id, customer.businessId, customer.livemode, customer.email],
    );
  }

  private async addCard(tx: RequestContext, customer: Customer, card: VaultedCard): Promise<PaymentMethod> {
    const paymentMethod = await tx.repo(PaymentMethod).save(
      tx.repo(PaymentMethod).create({
        businessId: customer.businessId,
        livemode: customer.livemode,
        customerId: customer.id,
        providerRef: card.providerRef,
        brand: card.brand,
        last4: card.last4,
        bin: card.bin,
        expiryMonth: card.expiryMonth,
        expiryYear: card.expiryYear,
        fingerprint: card.fingerprint,
        country: card.country,
      }),
    );
    if (!customer.defaultPaymentMethodId) {
      customer.defaultPaymentMethodId = paymentMethod.id;
      await tx.repo(Customer).save(customer);
    }
    return paymentMethod;
  }

  /** A saved card of this customer; another customer's card is NOT_FOUND like an unknown one. */
  private async findMethod(ctx: RequestContext, customer: Customer, paymentMethodId: string): Promise<PaymentMethod> {
    const method = await findOwned(ctx, PaymentMethod, paymentMethodId, 'Payment method');
    if (method.customerId !== customer.id) throw notFound('Payment method');
    return method;
  }
}

/**
 * A saved card to charge (`paymentMethodId` of the charge): a card of a customer of the context's
 * business and mode, with that customer; otherwise a VALIDATION_ERROR on `field`.
 */
export async function savedCardForCharge(
  ctx: RequestContext,
  paymentMethodId: string,
  field = 'paymentMethodId',
): Promise<{ method: PaymentMethod; customer: Customer }> {
  const scope = { businessId: ctx.requireBusiness(), livemode: ctx.livemode };
  const method = isUuid(paymentMethodId)
    ? await ctx.repo(PaymentMethod).findOne({ where: { id: paymentMethodId, ...scope } })
    : null;
  const customer = method ? await ctx.repo(Customer).findOne({ where: { id: method.customerId, ...scope } }) : null;
  if (!method || !customer)
    throw validationError({ [field]: ['is not a saved card of a customer of this business and mode'] });
  return { method, customer };
}

/**
 * Whom a charge that keeps its card keeps it for (payments' `CardKeeper`): the business's customer
 * with the payer's email, made when there is none (as saving a card makes it), with the acquirer's
 * customer it has; and the acquirer's customer recorded on it once the acquirer kept the card.
 */
export const cardKeeper: CardKeeper = {
  async customerFor(ctx, email) {
    const businessId = ctx.requireBusiness();
    const inserted: Array<{ id: string }> = await ctx.em.query(
      `INSERT INTO customers (business_id, livemode, email) VALUES ($1, $2, $3) ON CONFLICT (business_id, livemode, email) DO NOTHING RETURNING id`,
      [businessId, ctx.livemode, email],
    );
    const customer = await ctx.repo(Customer).findOneOrFail({ where: { businessId, livemode: ctx.livemode, email } });
    if (inserted.length > 0)
      await ctx.em.query(
        `UPDATE payments SET customer_id = $1 WHERE business_id = $2 AND livemode = $3 AND email = $4 AND customer_id IS NULL`,
        [customer.id, businessId, ctx.livemode, email],
      );
    return { customerId: customer.id, email: customer.email, customerRef: customer.acquirerCustomerRef };
  },
  async recordAcquirerCustomer(tx, customerId, customerRef) {
    await tx
      .repo(Customer)
      .update(
        { id: customerId, businessId: tx.requireBusiness(), livemode: tx.livemode },
        { acquirerCustomerRef: customerRef },
      );
  },
};

/** The saved card a charge names, as payments charges it (`SavedCardOf`, src/domain/payments/charge.service.ts). */
export const savedCardToCharge: SavedCardOf = async (ctx, paymentMethodId) => {
  const { method, customer } = await savedCardForCharge(ctx, paymentMethodId);
  return { card: vaultedCardOf(method), paymentMethodId: method.id, customerId: customer.id, email: customer.email };
};

/** A saved card as the acquirer knows it, to charge it again. */
export const vaultedCardOf = (method: PaymentMethod): VaultedCard => ({
  providerRef: method.providerRef,
  brand: method.brand,
  last4: method.last4,
  bin: method.bin,
  expiryMonth: method.expiryMonth,
  expiryYear: method.expiryYear,
  fingerprint: method.fingerprint,
  country: method.country,
});
