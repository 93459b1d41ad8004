import { In } from 'typeorm';
import { z } from 'zod';
import { CardDetails, cardSchema } from '../payments/card';
import { CAPTURED_PAYMENT_STATUSES, Payment } from '../payments/payment.entities';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';
import { Page, PageRequest, keysetPage } from '../shared/pagination';
import { emailSchema, evenWhenFieldsFail, isUuid, parseInput, required, pageParams } from '../../wire/validation';
import { redeemCardToken } from '../tokens/card-token.service';
import { VaultedCard } from '../../providers/card-acquirer/port';
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

const text = (max: number) => z.string({ error: 'must be a string or null' }).trim().min(1, 'must not be empty; send null to clear it')
  .max(max, `must be at most ${max} characters`).nullable();
const phoneSchema = z.string({ error: 'must be a string or null' }).trim()
  .regex(/^\+?[0-9][0-9 ().-]{3,30}$/, 'must be a phone number such as +14155550100').nullable();

const profileFields = {
  userId: text(200).optional(),
  firstName: text(100).optional(),
  lastName: text(100).optional(),
  phoneNumber: phoneSchema.optional(),
};

const createSchema = z.object({
  email: z.string({ error: required('the customer\'s email address') }).pipe(emailSchema),
  ...profileFields,
}, { error: 'must be a JSON object' });

const updateSchema = z.object({
  email: z.string({ error: 'must be an email address' }).pipe(emailSchema).optional(),
  ...profileFields,
}, { error: 'must be a JSON object' });

const listSchema = z.object({
  ...pageParams,
  email: z.string().pipe(emailSchema).optional(),
});

const connectionSchema = z.object({ email: z.string().pipe(emailSchema).nullish() });

const attachSchema = z.object({
  card: cardSchema.optional(),
  token: z.string({ error: 'must be a card token id (tok_…)' }).trim().optional(),
}, { error: 'must be a JSON object with card or token' }).superRefine((data, issues) => {
  if ((data.card === undefined) === (data.token === undefined)) {
    issues.addIssue({ code: 'custom', path: [data.card === undefined ? 'card' : 'token'], message: 'send exactly one of card (number, expiryMonth, expiryYear, cvv) or token' });
  }
}, evenWhenFieldsFail);

const isUniqueViolation = (error: unknown) =>
  (error as { driverError?: { code?: string } } | null)?.driverError?.code === '23505';
const emailTaken = () =>
  new DomainError(ErrorCode.CONFLICT, 'A customer with this email already exists', { email: ['already has a customer profile'] });

/**
 * Customer profiles of a business and mode, the cards saved for them, and their payments.
 * Payments find their customer by `payments.customer_id`: new payments are linked by email when
 * they are made, and a new profile (or a changed email) links the earlier payments of that email.
 */
export class CustomerService {
  constructor(private readonly vault: (ctx: RequestContext, card: CardDetails) => Promise<VaultedCard>) {}

  /** Creates a profile; 409 when the email already has one. Earlier payments of the email become its payments. */
  async create(ctx: RequestContext, input: unknown): Promise<CustomerView> {
    ctx.requireRole(...WRITE_ROLES);
    const data = parseInput(createSchema, input ?? {});
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      const exists = await tx.repo(Customer).exists({ where: { businessId, livemode: tx.livemode, email: data.email } });
      if (exists) throw emailTaken();
      const customer = await tx.repo(Customer).save(tx.repo(Customer).create({
        businessId, livemode: tx.livemode, email: data.email, userId: data.userId ?? null, firstName: data.firstName ?? null,
        lastName: data.lastName ?? null, phoneNumber: data.phoneNumber ?? null, defaultPaymentMethodId: null,
      }));
      await this.linkPayments(tx, customer);
      return this.view(tx, customer);
    }).catch((error: unknown) => { throw isUniqueViolation(error) ? emailTaken() : error; });
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
      ? await this.filtered(ctx, undefined).andWhere('customer.id = :customerId', { customerId })
        .andWhere(`EXISTS (SELECT 1 FROM payments paid
                    WHERE paid.business_id = customer.business_id AND paid.livemode = customer.livemode
                      AND (paid.customer_id = customer.id OR (paid.customer_id IS NULL AND paid.email = customer.email))
                      AND paid.status IN (:...captured))`, { captured: CAPTURED_PAYMENT_STATUSES })
        .getOne()
      : null;
    if (!customer) {
      throw new DomainError(ErrorCode.NOT_FOUND, 'Customer not found: a customer can be retrieved once they have paid this business in this mode');
    }
    return this.view(ctx, customer);
  }

  /** Changes profile fields; null clears an optional one. A new email links that email's earlier payments. */
  async update(ctx: RequestContext, customerId: string, input: unknown): Promise<CustomerView> {
    ctx.requireRole(...WRITE_ROLES);
    await this.find(ctx, customerId);
    const data = parseInput(updateSchema, input ?? {});
    return inTransaction(ctx, async (tx) => {
      const customer = await this.find(tx, customerId, true);
      const emailChanged = data.email !== undefined && data.email !== customer.email;
      if (emailChanged) {
        const taken = await tx.repo(Customer).exists({ where: { businessId: customer.businessId, livemode: customer.livemode, email: data.email } });
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
    }).catch((error: unknown) => { throw isUniqueViolation(error) ? emailTaken() : error; });
  }

  /** REST list: every profile of the business and mode, newest first; `page` from 1, `limit` up to 100, optional `email`. */
  async listPage(ctx: RequestContext, query: unknown): Promise<{ items: CustomerView[]; total: number; page: number; limit: number }> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(listSchema, query ?? {});
    const page = filters.page ?? 1;
    const limit = filters.limit ?? 20;
    const [customers, total] = await this.filtered(ctx, filters.email).skip((page - 1) * limit).take(limit).getManyAndCount();
    return { items: await this.views(ctx, customers), total, page, limit };
  }

  /** GraphQL connection: newest first, keyset on (createdAt, id); the cursor carries the email filter. */
  async connection(ctx: RequestContext, input: unknown, request: PageRequest): Promise<Page<Customer>> {
    ctx.requireRole(...ALL_ROLES);
    const { email } = parseInput(connectionSchema, input ?? {});
    return keysetPage(this.filtered(ctx, email ?? undefined), 'customer', request, { email: email ?? null });
  }

  /**
   * Saves a card for the customer, given as `card` (vaulted with the acquirer; the number is
   * never stored) or as a card `token` (consumed). The first card becomes the default.
   */
  async attachPaymentMethod(ctx: RequestContext, customerId: string, input: unknown): Promise<{ customer: Customer; paymentMethod: PaymentMethod }> {
    ctx.requireRole(...WRITE_ROLES);
    await this.find(ctx, customerId);
    const data = parseInput(attachSchema, input ?? {});
    const vaulted = data.card ? await this.vault(ctx, data.card) : null;
    return inTransaction(ctx, async (tx) => {
      const customer = await this.find(tx, customerId, true);
      const card = vaulted ?? await redeemCardToken(tx, data.token!);
      const paymentMethod = await this.addCard(tx, customer, card);
      return { customer, paymentMethod };
    });
  }

  /** Removes a saved card; when it was the default, the newest remaining card becomes the default. */
  async detachPaymentMethod(ctx: RequestContext, customerId: string, paymentMethodId: string): Promise<{ customer: Customer; paymentMethod: PaymentMethod }> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const customer = await this.find(tx, customerId, true);
      const paymentMethod = await this.findMethod(tx, customer, paymentMethodId);
      await tx.repo(PaymentMethod).delete({ id: paymentMethod.id });
      if (customer.defaultPaymentMethodId === paymentMethod.id) {
        const next = await tx.repo(PaymentMethod).findOne({ where: { customerId: customer.id }, order: { createdAt: 'DESC', id: 'DESC' } });
        customer.defaultPaymentMethodId = next?.id ?? null;
        await tx.repo(Customer).save(customer);
      }
      return { customer, paymentMethod };
    });
  }

  async setDefaultPaymentMethod(ctx: RequestContext, customerId: string, paymentMethodId: string): Promise<CustomerView> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const customer = await this.find(tx, customerId, true);
      customer.defaultPaymentMethodId = (await this.findMethod(tx, customer, paymentMethodId)).id;
      await tx.repo(Customer).save(customer);
      return this.view(tx, customer);
    });
  }

  /**
   * Saves a vaulted card for the customer with this email, creating the profile when there is
   * none; the first card saved becomes the default.
   */
  async saveCard(ctx: RequestContext, input: { email: string; card: VaultedCard }): Promise<{ customer: Customer; paymentMethod: PaymentMethod }> {
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      const inserted: Array<{ id: string }> = await tx.em.query(
        `INSERT INTO customers (business_id, livemode, email) VALUES ($1, $2, $3) ON CONFLICT (business_id, livemode, email) DO NOTHING RETURNING id`,
        [businessId, tx.livemode, input.email],
      );
      const customer = await tx.repo(Customer).createQueryBuilder('customer').setLock('pessimistic_write')
        .where('customer.business_id = :businessId AND customer.livemode = :livemode AND customer.email = :email', { businessId, livemode: tx.livemode, email: input.email })
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
    return ctx.repo(Customer).find({ where: { id: In(valid), businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
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
  async recentPaymentsOf(ctx: RequestContext, customers: Array<Pick<Customer, 'id' | 'email'>>): Promise<Map<string, Payment[]>> {
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
      [customers.map((customer) => customer.id), customers.map((customer) => customer.email), ctx.requireBusiness(), ctx.livemode, RECENT_PAYMENTS_LIMIT],
    );
    if (rows.length === 0) return result;
    const payments = await ctx.repo(Payment).find({ where: { id: In([...new Set(rows.map((row) => row.payment_id))]) } });
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
    const [methods, recent] = await Promise.all([this.paymentMethodsOf(ctx, ids), this.recentPaymentsOf(ctx, customers)]);
    return customers.map((customer) => ({
      customer,
      paymentMethods: methods.filter((method) => method.customerId === customer.id),
      recentPayments: recent.get(customer.id) ?? [],
    }));
  }

  private filtered(ctx: RequestContext, email: string | undefined) {
    const query = ctx.repo(Customer).createQueryBuilder('customer')
      .where('customer.business_id = :businessId AND customer.livemode = :livemode', { businessId: ctx.requireBusiness(), livemode: ctx.livemode })
      .orderBy('customer.created_at', 'DESC').addOrderBy('customer.id', 'DESC');
    if (email) query.andWhere('customer.email = :email', { email });
    return query;
  }

  /** Makes the email's payments that have no customer yet this customer's. */
  private async linkPayments(tx: RequestContext, customer: Customer): Promise<void> {
    await tx.em.query(
      `UPDATE payments SET customer_id = $1 WHERE business_id = $2 AND livemode = $3 AND email = $4 AND customer_id IS NULL`,
      [customer.id, customer.businessId, customer.livemode, customer.email],
    );
  }

  private async addCard(tx: RequestContext, customer: Customer, card: VaultedCard): Promise<PaymentMethod> {
    const paymentMethod = await tx.repo(PaymentMethod).save(tx.repo(PaymentMethod).create({
      businessId: customer.businessId, livemode: customer.livemode, customerId: customer.id, providerRef: card.providerRef, brand: card.brand,
      last4: card.last4, bin: card.bin, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, fingerprint: card.fingerprint, country: card.country,
    }));
    if (!customer.defaultPaymentMethodId) {
      customer.defaultPaymentMethodId = paymentMethod.id;
      await tx.repo(Customer).save(customer);
    }
    return paymentMethod;
  }

  private async find(ctx: RequestContext, customerId: string, lock = false): Promise<Customer> {
    const customer = isUuid(customerId)
      ? await ctx.repo(Customer).findOne({
        where: { id: customerId, businessId: ctx.requireBusiness(), livemode: ctx.livemode },
        ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      })
      : null;
    if (!customer) throw notFound('Customer');
    return customer;
  }

  private async findMethod(ctx: RequestContext, customer: Customer, paymentMethodId: string): Promise<PaymentMethod> {
    const method = isUuid(paymentMethodId)
      ? await ctx.repo(PaymentMethod).findOne({ where: { id: paymentMethodId, customerId: customer.id, businessId: customer.businessId, livemode: customer.livemode } })
      : null;
    if (!method) throw notFound('Payment method');
    return method;
  }
}

/**
 * A saved card to charge (`paymentMethodId` of the charge): a card of a customer of the context's
 * business and mode, with that customer; otherwise a VALIDATION_ERROR on `field`.
 */
export async function savedCardForCharge(ctx: RequestContext, paymentMethodId: string, field = 'paymentMethodId'): Promise<{ method: PaymentMethod; customer: Customer }> {
  const scope = { businessId: ctx.requireBusiness(), livemode: ctx.livemode };
  const method = isUuid(paymentMethodId) ? await ctx.repo(PaymentMethod).findOne({ where: { id: paymentMethodId, ...scope } }) : null;
  const customer = method ? await ctx.repo(Customer).findOne({ where: { id: method.customerId, ...scope } }) : null;
  if (!method || !customer) throw validationError({ [field]: ['is not a saved card of a customer of this business and mode'] });
  return { method, customer };
}

/** A saved card as the acquirer knows it, to charge it again. */
export const vaultedCardOf = (method: PaymentMethod): VaultedCard => ({
  providerRef: method.providerRef, brand: method.brand, last4: method.last4, bin: method.bin, expiryMonth: method.expiryMonth,
  expiryYear: method.expiryYear, fingerprint: method.fingerprint, country: method.country,
});
