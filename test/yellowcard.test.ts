import { RequestContext } from '../src/domain/shared/context';
import { ReachableFx } from '../src/providers/fx/reachable';
import { YellowCardConnection } from '../src/providers/yellowcard/connection';
import { YellowCardFx } from '../src/providers/yellowcard/fx';
import { FakeYellowCard, YC_CHANNELS, YC_NETWORKS } from './support/fake-yellowcard';
import { startYellowCardLive } from './support/yellowcard-live';
import { TestMerchant, TestServer } from './support/harness';
import { expectLedgerBalanced } from './support/payments';
import { PAYOUTS, bankDetails } from './support/payouts';
import { waitFor, waitUntil } from './support/wait';

/** The probe's value once it is neither undefined nor null; throws, naming `what`, when it never is. */
async function eventually<T>(probe: () => T | Promise<T>, what: string): Promise<NonNullable<T>> {
  const value = await waitFor(
    async () => probe(),
    (found) => found !== undefined && found !== null,
  );
  if (value === undefined || value === null) throw new Error(`${what}: not in time`);
  return value;
}

const WEBHOOKS_PATH = '/providers/yellowcard/webhooks';
const COLLECTIONS = '/api/v1/business/collections';
const [NG_PAYOUT, NG_COLLECT, GH_PAYOUT, GH_COLLECT, KE_INACTIVE] = YC_CHANNELS;
const [GTBANK, MTN_GH, VODAFONE_GH] = YC_NETWORKS;

/**
 * Issue 30: a live business pays out, collects and quotes through Yellow Card (the local fake of
 * its business API), each reaching its final state from Yellow Card's signed webhooks, applied once
 * through the provider-event inbox, with the ledger exact.
 */
describe('Yellow Card: live payouts, collections and rates', () => {
  let fake: FakeYellowCard;
  let server: TestServer;
  let merchant: TestMerchant & { liveKey: string };

  const query = <T = any>(sql: string, params: unknown[] = []) => server.runtime.dataSource.query<T[]>(sql, params);
  const live = () => ({ 'x-api-key': merchant.liveKey });
  const post = (path: string, body: Record<string, unknown>) => server.request('POST', path, { headers: live(), body });
  const liveBalance = async (currency: string) => {
    const rows = await query(
      `SELECT balance::text FROM ledger_accounts WHERE kind = 'merchant_wallet' AND business_id = $1 AND livemode AND currency = $2`,
      [merchant.businessId, currency],
    );
    return rows.length ? BigInt(rows[0].balance) : 0n;
  };
  const recipient = async (details: Record<string, unknown>) => {
    const response = await post(`${PAYOUTS}/recipients`, { label: 'Supplier', details });
    expect([200, 201]).toContain(response.status);
    return response.body.data.id as string;
  };
  const payoutStatus = async (id: string) =>
    (await server.request('GET', `${PAYOUTS}/${id}`, { headers: live() })).body.data.status as string;
  const collectionOf = async (id: string) =>
    (await server.request('GET', `${COLLECTIONS}/${id}`, { headers: live() })).body.data;
  const inbox = (eventId: string) =>
    query(
      `SELECT event_id, type, outcome, applied_at FROM provider_events WHERE provider = 'yellowcard' AND event_id = $1`,
      [eventId],
    );
  const postingsOf = async (referenceId: string) =>
    (
      await query(`SELECT kind FROM journal_transactions WHERE reference_id = $1 ORDER BY created_at, kind`, [
        referenceId,
      ])
    ).map((row) => row.kind as string);
  /** A payout of 10.00 USD to `details`, submitted to Yellow Card (accepted there): its id and Yellow Card's payment. */
  const submittedPayout = async (details: Record<string, unknown>) => {
    const response = await post(PAYOUTS, { recipientId: await recipient(details), amount: '10.00', currency: 'USD' });
    expect(response.status).toBe(201);
    const id = response.body.data.id as string;
    const payment = await eventually(() => {
      const found = fake.find(id);
      return found?.status === 'processing' ? found : undefined;
    }, `Yellow Card's payment of ${id} accepted`);
    await waitUntil(async () => (await payoutStatus(id)) === 'SUBMITTED', `payout ${id} SUBMITTED`);
    return { id, payment };
  };
  const postWebhook = (payload: string, signature: string) =>
    fetch(`${server.baseUrl}${WEBHOOKS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-yc-signature': signature },
      body: payload,
    });

  beforeAll(async () => {
    ({ fake, server, merchant } = await startYellowCardLive(100_000n)); // 1,000.00 USD
  });
  afterAll(async () => {
    await fake.close();
    await server.close();
  });

  test("the live collection channels are Yellow Card's active deposit channels, with its ids and networks", async () => {
    const response = await eventually(async () => {
      const answer = await server.request('GET', `${COLLECTIONS}/channels`, { headers: live() });
      return answer.status === 200 ? answer : undefined;
    }, 'the channels read from Yellow Card');
    const channels = response.body.data.items as Array<Record<string, any>>;
    expect(channels.map((channel) => channel.id).sort()).toEqual([NG_COLLECT.id, GH_COLLECT.id].sort());
    expect(channels.map((channel) => channel.id)).not.toContain(KE_INACTIVE.id);
    const momo = channels.find((channel) => channel.id === GH_COLLECT.id)!;
    expect(momo).toMatchObject({
      country: 'GH',
      currency: expect.stringMatching(/^ghs$/i),
      rail: 'momo',
      provider: 'yellowcard',
    });
    expect(momo.networkIds).toEqual([MTN_GH.id, VODAFONE_GH.id]);
    // Limits in minor units, from Yellow Card's in major units.
    expect(momo).toMatchObject({ minAmount: 100, maxAmount: 2_000_000 });
  });

  test('the channels are read again by refresh_provider_channels: a channel Yellow Card turns on appears; test mode keeps the sandbox', async () => {
    const kenya = fake.channels.find((channel) => channel.id === KE_INACTIVE.id)!;
    kenya.status = 'active';
    kenya.apiStatus = 'active';
    const ids = async () =>
      (
        (await server.request('GET', `${COLLECTIONS}/channels`, { headers: live() })).body.data.items as Array<{
          id: string;
        }>
      ).map((channel) => channel.id);
    expect(await ids()).not.toContain(KE_INACTIVE.id); // the catalogue as last read
    const system = RequestContext.system(server.runtime.dataSource, 'test');
    expect(await server.runtime.core.collections.refreshProviderChannels(system)).toBe(true);
    expect(await ids()).toContain(KE_INACTIVE.id);
    kenya.status = 'inactive';
    kenya.apiStatus = 'inactive';
    await server.runtime.core.collections.refreshProviderChannels(system);
    expect(await ids()).not.toContain(KE_INACTIVE.id);
    const sandbox = await server.request('GET', `${COLLECTIONS}/channels`, {
      headers: { 'x-api-key': merchant.apiKey },
    });
    expect((sandbox.body.data.items as Array<{ id: string }>).map((channel) => channel.id)).toContain('sbx_ch_ng_bank');
  });

  test("a live quote is at Yellow Card's rate; a currency it does not quote is refused on the field", async () => {
    const quote = await post(`${PAYOUTS}/quote`, {
      amount: '10.00',
      currency: 'USD',
      destinationCurrency: 'NGN',
      country: 'NG',
      rail: 'LOCAL_BANK',
    });
    expect(quote.status).toBe(201);
    expect(quote.body.data).toMatchObject({ rate: '1550.00000000', dstAmount: '15500.00', serviceFee: '0.10' });
    const refused = await post(`${PAYOUTS}/quote`, {
      amount: '10.00',
      currency: 'USD',
      destinationCurrency: 'XOF',
      country: 'SN',
      rail: 'LOCAL_BANK',
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toContain('does not quote USD to XOF');
  });

  test('Yellow Card not answering its rates is 503 through ReachableFx', async () => {
    const fx = new ReachableFx(new YellowCardFx(new YellowCardConnection(fake.settings, 500)));
    fake.failNext(1, 502, '/rates');
    await expect(fx.midRate('USD', 'NGN')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    fake.delayNext(1_000);
    await expect(
      fx.offer({ sourceCurrency: 'USD', destinationCurrency: 'GHS', rail: 'MOBILE_MONEY' }),
    ).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(await fx.offer({ sourceCurrency: 'USD', destinationCurrency: 'GHS', rail: 'MOBILE_MONEY' })).toEqual({
      rate: { units: 1_500_000_000n, scale: 8 },
      serviceFeeBps: 150,
    });
  });

  test("a bank payout: submitted under the payout's id, the quote accepted, SETTLED by PAYMENT.COMPLETE; the ledger exact", async () => {
    const before = await liveBalance('USD');
    const { id, payment } = await submittedPayout(bankDetails('6789'));
    expect(payment).toMatchObject({
      sequenceId: id,
      channelId: NG_PAYOUT.id,
      localAmount: 15500,
      destination: { accountNumber: '0123456789', accountType: 'bank', networkId: GTBANK.id, accountName: 'Ada Obi' },
    });
    const requests = fake.requests.filter((request) => request.path === '/payments' && request.method === 'POST');
    expect(requests.filter((request) => request.body?.sequenceId === id)).toHaveLength(1);
    expect(await liveBalance('USD')).toBe(before - 1_010n); // 10.00 and its 0.10 fee

    fake.completePayment(payment.id);
    await waitUntil(async () => (await payoutStatus(id)) === 'SETTLED', 'payout SETTLED by the webhook');
    expect(await inbox(`${payment.id}:PAYMENT.COMPLETE`)).toEqual([
      expect.objectContaining({ type: 'PAYMENT.COMPLETE', outcome: 'applied', applied_at: expect.any(Date) }),
    ]);
    expect(await inbox(`${payment.id}:PAYMENT.PROCESSING`)).toEqual([expect.objectContaining({ outcome: 'ignored' })]);
    expect(await liveBalance('USD')).toBe(before - 1_010n);
    await expectLedgerBalanced(server);
  });

  test('a mobile-money payout to a Yellow Card network: FAILED by PAYMENT.FAILED, the wallet given back', async () => {
    const before = await liveBalance('USD');
    const { id, payment } = await submittedPayout({
      rail: 'MOBILE_MONEY',
      country: 'GH',
      currency: 'GHS',
      networkId: MTN_GH.id,
      phone: '+233241234567',
      accountName: 'Kofi Mensah',
    });
    expect(payment).toMatchObject({
      channelId: GH_PAYOUT.id,
      localAmount: 150,
      destination: { accountNumber: '+233241234567', accountType: 'momo', networkId: MTN_GH.id },
    });
    fake.failPayment(payment.id, 'INVALID_ACCOUNT');
    await waitUntil(async () => (await payoutStatus(id)) === 'FAILED', 'payout FAILED by the webhook');
    const failed = (await server.request('GET', `${PAYOUTS}/${id}`, { headers: live() })).body.data;
    expect(JSON.stringify(failed)).toContain('invalid_account');
    expect(await liveBalance('USD')).toBe(before);
    await expectLedgerBalanced(server);
  });

  test("Yellow Card's answer lost after it made the payment: the retry finds it by sequence id, one payment only", async () => {
    fake.dropAfterCommit(1, '/payments');
    const { id, payment } = await submittedPayout(bankDetails('5511'));
    expect(fake.payments().filter((item) => item.sequenceId === id)).toHaveLength(1);
    expect(
      fake.requests.filter((request) => request.path === `/payments/sequence-id/${id}`).length,
    ).toBeGreaterThanOrEqual(2);
    fake.completePayment(payment.id);
    await waitUntil(async () => (await payoutStatus(id)) === 'SETTLED', 'payout SETTLED');
    expect(await postingsOf(id)).toEqual(expect.arrayContaining(['payout_settle']));
    await expectLedgerBalanced(server);
  });

  test('Yellow Card down at submission: the dispatch is retried, nothing doubled', async () => {
    fake.failNext(1, 503, '/payments');
    const { id } = await submittedPayout(bankDetails('5522'));
    expect(fake.payments().filter((item) => item.sequenceId === id)).toHaveLength(1);
  });

  test('a late webhook: the status poll asks Yellow Card by sequence id and settles the payout once', async () => {
    const { id, payment } = await submittedPayout(bankDetails('5533'));
    // Yellow Card completes the payment, but its webhook never arrives (delivered to nobody).
    const restore = fake.loseWebhooks();
    fake.completePayment(payment.id);
    restore();
    expect(await payoutStatus(id)).toBe('SUBMITTED');
    const system = RequestContext.system(server.runtime.dataSource, 'test');
    const moved = await server.runtime.core.payouts.pollLateSubmitted(system, { olderThanSeconds: 0 });
    expect(moved).toContain(id);
    expect(await payoutStatus(id)).toBe('SETTLED');
    expect(await server.runtime.core.payouts.pollLateSubmitted(system, { olderThanSeconds: 0 })).not.toContain(id);
    await expectLedgerBalanced(server);
  });

  test('webhooks: a tampered body or a wrong signature is refused 400 and stores nothing; a repeat is applied once; a late earlier state changes nothing; an unknown event is stored and ignored', async () => {
    const { id, payment } = await submittedPayout(bankDetails('5544'));
    const signed = fake.webhook(payment.id, 'PAYMENT.COMPLETE');
    const tampered = signed.payload.replace('"PAYMENT.COMPLETE"', '"PAYMENT.FAILED"');
    expect((await postWebhook(tampered, signed.signature)).status).toBe(400);
    expect((await postWebhook(signed.payload, fake.sign('{}'))).status).toBe(400);
    expect((await postWebhook(signed.payload, '')).status).toBe(400);
    expect(await inbox(`${payment.id}:PAYMENT.FAILED`)).toEqual([]);
    expect(await payoutStatus(id)).toBe('SUBMITTED');

    // Signed right, three times (Yellow Card retrying): one event, one settlement.
    for (let i = 0; i < 3; i++) expect((await postWebhook(signed.payload, signed.signature)).status).toBe(200);
    await waitUntil(async () => (await payoutStatus(id)) === 'SETTLED', 'payout SETTLED');
    expect(await inbox(`${payment.id}:PAYMENT.COMPLETE`)).toHaveLength(1);
    expect((await postingsOf(id)).filter((kind) => kind === 'payout_settle')).toHaveLength(1);

    // Reordered: an earlier state, and then the other outcome, arriving after COMPLETE change nothing.
    const pending = fake.webhook(payment.id, 'PAYMENT.PENDING');
    expect((await postWebhook(pending.payload, pending.signature)).status).toBe(200);
    const failed = fake.webhook(payment.id, 'PAYMENT.FAILED', { errorCode: 'LATE' });
    expect((await postWebhook(failed.payload, failed.signature)).status).toBe(200);
    await eventually(
      async () => (await inbox(`${payment.id}:PAYMENT.FAILED`))[0]?.applied_at,
      'the late FAILED applied',
    );
    expect((await inbox(`${payment.id}:PAYMENT.FAILED`))[0].outcome).toBe('ignored');
    expect(await payoutStatus(id)).toBe('SETTLED');

    // An event Tessera has no handler for: stored, answered 200, ignored.
    const unknown = fake.webhook(payment.id, 'PAYMENT.SOMETHING_NEW');
    expect((await postWebhook(unknown.payload, unknown.signature)).status).toBe(200);
    expect(await inbox(`${payment.id}:PAYMENT.SOMETHING_NEW`)).toEqual([
      expect.objectContaining({ outcome: 'ignored' }),
    ]);
    await expectLedgerBalanced(server);
  });

  test("a bank-transfer collection: Yellow Card's account and reference, completed by COLLECTION.COMPLETE, the USDC wallet credited once", async () => {
    const before = await liveBalance('USDC');
    const created = await post(COLLECTIONS, {
      amount: 1_600_000, // 16,000.00 NGN
      currency: 'ngn',
      country: 'NG',
      rail: 'bank',
      customer: { email: 'ada@example.com', name: 'Ada Obi' },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const atYellowCard = fake.find(id)!;
    expect(atYellowCard).toMatchObject({
      sequenceId: id,
      channelId: NG_COLLECT.id,
      status: 'processing',
      localAmount: 16000,
    });
    const bankInfo = atYellowCard.bankInfo as { name: string; accountNumber: string; accountName: string };
    expect(created.body.data.instructions).toMatchObject({
      kind: 'bank_transfer',
      bankName: bankInfo.name,
      accountNumber: bankInfo.accountNumber,
      accountName: bankInfo.accountName,
      reference: atYellowCard.reference,
    });

    fake.completeCollection(atYellowCard.id);
    await waitUntil(async () => (await collectionOf(id)).status === 'completed', 'collection completed');
    const completed = await collectionOf(id);
    expect(completed.amountReceived).toBe(1_600_000);
    expect((await postingsOf(id)).filter((kind) => kind === 'collection_settlement')).toHaveLength(1);
    // 16,000 NGN at 1/1600 = 10.00 USDC, less Tessera's fee.
    const credited = (await liveBalance('USDC')) - before;
    expect(credited).toBeGreaterThan(9_000_000n);
    expect(credited).toBeLessThanOrEqual(10_000_000n);
    fake.redeliver(
      fake.deliveries.find(
        (delivery) => delivery.payload.includes(atYellowCard.id) && delivery.event === 'COLLECTION.COMPLETE',
      )!,
    );
    await fake.deliveriesSettled();
    expect((await postingsOf(id)).filter((kind) => kind === 'collection_settlement')).toHaveLength(1);
    await expectLedgerBalanced(server);
  });

  test('a mobile-money collection: the prompt, then another amount paid fails it (amount_mismatch) and credits nothing', async () => {
    const before = await liveBalance('USDC');
    const created = await post(COLLECTIONS, {
      amount: 5_000, // 50.00 GHS
      currency: 'ghs',
      country: 'GH',
      rail: 'momo',
      customer: { phone: '+233241234567', networkId: MTN_GH.id },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data.instructions).toMatchObject({ kind: 'momo_prompt', phone: '+233241234567' });
    expect(created.body.data.instructions.prompt).toContain('MTN Mobile Money');
    const atYellowCard = fake.find(id)!;
    expect(atYellowCard.source).toMatchObject({
      accountType: 'momo',
      accountNumber: '+233241234567',
      networkId: MTN_GH.id,
    });

    fake.completeCollection(atYellowCard.id, 40);
    await waitUntil(async () => (await collectionOf(id)).status === 'failed', 'collection failed');
    expect(await collectionOf(id)).toMatchObject({ failureReason: 'amount_mismatch', amountReceived: 4_000 });
    expect(await liveBalance('USDC')).toBe(before);
    await expectLedgerBalanced(server);
  });

  test('a collection Yellow Card expires or fails: expired, failed', async () => {
    const open = async () => {
      const created = await post(COLLECTIONS, {
        amount: 5_000,
        currency: 'ghs',
        country: 'GH',
        rail: 'momo',
        customer: { phone: '+233241234568', networkId: VODAFONE_GH.id },
      });
      expect(created.status).toBe(201);
      return created.body.data.id as string;
    };
    const expiring = await open();
    fake.expireCollection(expiring);
    await waitUntil(async () => (await collectionOf(expiring)).status === 'expired', 'collection expired');
    const failing = await open();
    fake.failCollection(failing, 'PAYER_DECLINED');
    await waitUntil(async () => (await collectionOf(failing)).status === 'failed', 'collection failed');
    expect((await collectionOf(failing)).failureReason).toBe('payer_declined');
  });
});
