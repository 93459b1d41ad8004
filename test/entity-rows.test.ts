import { Customer } from '../src/domain/customers/customer.entities';
import { Mode } from '../src/domain/shared/modes';
import { Dispute, Payment, Refund } from '../src/domain/payments/payment.entities';
import { RequestContext } from '../src/domain/shared/context';
import { keysetPage, newestFirst } from '../src/domain/shared/pagination';
import { EntityRows } from '../src/domain/shared/rows';
import { WebhookDelivery } from '../src/domain/webhooks/webhook-delivery.entity';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { CARDS, card, charge, chargingMerchant } from './support/payments';

/**
 * The list reads (keyset pages, the loaders' batch reads) hydrate rows with EntityRows instead of
 * TypeORM's result transformer: the entities must be the very ones TypeORM builds.
 */
describe('EntityRows reads the entities TypeORM reads', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let ctx: RequestContext;
  const ids: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600 });
    merchant = await chargingMerchant(server);
    // Payment events then get deliveries: an entity with relations (its event and endpoint), left unloaded.
    await server.request('PUT', '/api/v1/business/config', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { webhookUrl: 'http://127.0.0.1:9/hooks' },
    });
    ctx = new RequestContext(
      server.runtime.dataSource,
      { kind: 'system', name: 'test' },
      merchant.businessId,
      Mode.TEST,
    );
    for (const [index, number] of [CARDS.success, CARDS.declined, CARDS.success].entries()) {
      const body = {
        amount: 10 + index,
        currency: 'usd',
        card: card(number),
        email: `payer${index}@example.com`,
        metadata: index === 0 ? { order: 'A-1', nested: { n: 1 } } : undefined,
      };
      ids.push((await charge(server, merchant, body)).body.data.id);
    }
    await server.runtime.core.refunds.refund(ctx, { paymentId: ids[0], amount: '1.50' });
    await server.runtime.core.customers.create(ctx, { email: 'payer2@example.com', firstName: 'Payer' });
    await server.runtime.dataSource.query(
      `INSERT INTO disputes (business_id, livemode, payment_id, amount, fee, currency, reason) SELECT business_id, livemode, id, 500, 1500, currency, 'fraudulent' FROM payments WHERE id = $1`,
      [ids[2]],
    );
  });
  afterAll(async () => server.close());

  const typeorm = <T extends { id: string }>(entity: new () => T) =>
    ctx
      .repo(entity)
      .find({ where: { businessId: merchant.businessId } as never, order: { createdAt: 'ASC' } as never });

  test('payments, refunds, disputes and customers: same class, same properties, same values (bigint, dates, jsonb, enums, nulls)', async () => {
    for (const [entity, alias] of [
      [Payment, 'payment'],
      [Refund, 'refund'],
      [Dispute, 'dispute'],
      [Customer, 'customer'],
    ] as const) {
      const expected = await typeorm(entity as new () => { id: string });
      expect(expected.length).toBeGreaterThan(0);
      const read = await EntityRows.of(ctx, entity).select(
        ctx,
        alias,
        `WHERE "${alias}".business_id = $1 ORDER BY "${alias}".created_at ASC`,
        [merchant.businessId],
      );
      expect(read).toStrictEqual(expected);
      read.forEach((row, index) => expect(Object.keys(row)).toEqual(Object.keys(expected[index])));
    }
  });

  test('a keyset page holds the entities TypeORM reads, newest first', async () => {
    const page = await keysetPage(
      newestFirst(ctx, Payment, 'payment'),
      'payment',
      { kind: 'keyset', first: 2, after: null },
      {},
    );
    const expected = await ctx
      .repo(Payment)
      .find({ where: { businessId: merchant.businessId }, order: { createdAt: 'DESC', id: 'DESC' }, take: 2 });
    expect(page.items).toStrictEqual(expected);
    expect(page.hasNextPage).toBe(true);
  });

  test('a keyset page of an entity with relations (webhook deliveries) leaves them unloaded, as TypeORM does without a join', async () => {
    const page = await keysetPage(
      newestFirst(ctx, WebhookDelivery, 'delivery'),
      'delivery',
      { kind: 'keyset', first: 3, after: null },
      {},
    );
    const expected = await newestFirst(ctx, WebhookDelivery, 'delivery').take(3).getMany();
    expect(expected.length).toBeGreaterThan(0);
    expect(page.items).toStrictEqual(expected);
  });
});
