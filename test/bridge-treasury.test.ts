import { loadConfig } from '../src/config';
import { RequestContext } from '../src/domain/shared/context';
import {
  BridgeApiError,
  BridgeClient,
  bridgeAmountOf,
  tesseraAmountOf,
} from '../src/providers/treasury-rail/bridge-client';
import { FakeBridge } from './support/fake-bridge';
import { TestMerchant, TestServer, startDeliveringServer } from './support/harness';
import { expectLedgerBalanced } from './support/payments';
import { TREASURY_PAYOUTS, USERS, treasuryPartner } from './support/treasury';
import { waitFor, waitUntil } from './support/wait';

const WEBHOOKS_PATH = '/providers/bridge/webhooks';

/**
 * Issue 30, Bridge: a live treasury partner, through a Tessera server whose Bridge settings point at
 * the local fake of Bridge's API, onboards an end-user through Bridge's KYC link, opens wallets whose
 * deposit instructions are Bridge's, receives deposits announced by Bridge's signed webhooks
 * (credited once), and sends treasury payouts that Bridge's transfer webhooks finish, ledger exact.
 */
describe('Bridge as the live treasury rail and KYC provider', () => {
  let fake: FakeBridge;
  let server: TestServer;
  let partner: TestMerchant;
  let live: Record<string, string>;

  beforeAll(async () => {
    fake = await new FakeBridge().start();
    server = await startDeliveringServer({ bridge: fake.settings });
    fake.deliverTo(`${server.baseUrl}${WEBHOOKS_PATH}`);
    partner = await treasuryPartner(server);
    live = { 'x-api-key': await server.liveKeyOf(partner) };
  });
  afterAll(async () => {
    await fake?.close();
    await server?.close();
  });

  const query = <T = any>(sql: string, params: unknown[] = []) => server.runtime.dataSource.query<T[]>(sql, params);
  const post = (path: string, body: unknown) => server.request('POST', path, { headers: live, body });
  const get = (path: string) => server.request('GET', path, { headers: live });
  const eventsNamed = async (type: string) =>
    (
      await query(`SELECT count(*)::int AS n FROM events WHERE business_id = $1 AND type = $2 AND livemode`, [
        partner.businessId,
        type,
      ])
    )[0].n as number;
  const storedEvent = (eventId: string) =>
    waitFor(
      () =>
        query(`SELECT outcome, attempts FROM provider_events WHERE provider = 'bridge' AND event_id = $1`, [eventId]),
      (rows) => rows.length === 1 && rows[0].outcome !== null,
    );

  let externalId = 0;
  const endUser = async () => {
    externalId += 1;
    const created = await post(USERS, {
      externalId: `bridge-${externalId}`,
      email: `user${externalId}@example.com`,
      name: 'Ada Lovelace',
    });
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  };
  /** An end-user whose Bridge KYC was approved: its Bridge customer id. */
  const approvedEndUser = async () => {
    const userId = await endUser();
    const started = await post(`${USERS}/${userId}/kyc`, {});
    expect(started.status).toBe(201);
    const customerId = fake.list('kyc_link').at(-1)!.customer_id as string;
    fake.decideKyc(customerId, 'approved');
    await waitUntil(async () => (await get(`${USERS}/${userId}`)).body.data.status === 'active', 'KYC approved');
    return { userId, customerId };
  };
  const openWallet = async (userId: string, currency: string) => {
    const created = await post(`${USERS}/${userId}/wallets`, { currency });
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  };
  const balanceOf = async (userId: string, walletId: string) =>
    (await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance as string;
  const providerRefsOf = async (walletId: string) =>
    (await query(`SELECT deposit_account -> 'providerRefs' AS refs FROM treasury_wallets WHERE id = $1`, [walletId]))[0]
      .refs;
  const payoutStatus = (payoutId: string, status: string) =>
    waitFor(
      async () => (await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data,
      (payout) => payout.status === status,
    );
  const transferOf = (payoutId: string) =>
    waitFor(
      async () => fake.list('transfer').filter((transfer) => transfer.client_reference_id === payoutId),
      (found) => found.length > 0,
    );
  const bankPayout = (userId: string, walletId: string, amount: string) =>
    post(TREASURY_PAYOUTS, {
      partnerEndUserId: userId,
      partnerWalletId: walletId,
      amount,
      destinationType: 'bank_account',
      destination: {
        accountNumber: '215268129123',
        routingNumber: '101019644',
        accountName: 'Ada Lovelace',
        country: 'US',
      },
    });

  test('KYC: a Bridge KYC link (keyed by the check id) is the kycLinkUrl; Bridge approving moves the check and the end-user, once', async () => {
    const userId = await endUser();
    const started = await post(`${USERS}/${userId}/kyc`, {});
    expect(started.status).toBe(201);
    const check = started.body.data;
    const [link] = fake.list('kyc_link').slice(-1);
    expect(check).toMatchObject({ status: 'PENDING', kycLinkUrl: link.kyc_link });
    const request = fake.requests.find((item) => item.path === '/v0/kyc_links' && item.idempotencyKey === check.id);
    expect(request?.body).toMatchObject({
      email: `user${externalId}@example.com`,
      full_name: 'Ada Lovelace',
      type: 'individual',
    });
    // Not approved yet: no wallet.
    expect((await post(`${USERS}/${userId}/wallets`, { currency: 'usd' })).body.error.code).toBe('KYC_REQUIRED');

    const before = await eventsNamed('treasury.kyc.approved');
    fake.decideKyc(link.customer_id as string, 'approved');
    await fake.deliveriesSettled();
    const kyc = await waitFor(
      async () => (await get(`${USERS}/${userId}/kyc`)).body.data,
      (found) => found.status === 'APPROVED',
    );
    expect(kyc.status).toBe('APPROVED');
    expect((await get(`${USERS}/${userId}`)).body.data.status).toBe('active');
    // Bridge says it twice (the KYC link and the customer), applied in either order: decided once, the other marked ignored.
    const outcomes = [];
    for (const delivery of fake.deliveries.slice(-2))
      outcomes.push((await storedEvent(delivery.event.event_id))[0].outcome);
    expect(outcomes.sort()).toEqual(['applied', 'ignored']);
    expect((await eventsNamed('treasury.kyc.approved')) - before).toBe(1);
  });

  test("KYC: Bridge rejecting moves the check to REJECTED with Bridge's reasons", async () => {
    const userId = await endUser();
    expect((await post(`${USERS}/${userId}/kyc`, {})).status).toBe(201);
    const customerId = fake.list('kyc_link').at(-1)!.customer_id as string;
    fake.decideKyc(customerId, 'rejected', ['Cannot validate ID -- upload a clear photo of the full ID']);
    const kyc = await waitFor(
      async () => (await get(`${USERS}/${userId}/kyc`)).body.data,
      (found) => found.status === 'REJECTED',
    );
    expect(kyc.rejectionReasons).toEqual(['Cannot validate ID -- upload a clear photo of the full ID']);
    expect((await get(`${USERS}/${userId}`)).body.data.status).toBe('rejected');
  });

  test('KYC: Bridge not answering is 503, Bridge refusing is 422, with nothing written', async () => {
    const userId = await endUser();
    fake.failNext(1, 500, '/v0/kyc_links');
    const refused = await post(`${USERS}/${userId}/kyc`, {});
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('SERVICE_UNAVAILABLE');
    fake.failNext(1, 400, '/v0/kyc_links');
    const declined = await post(`${USERS}/${userId}/kyc`, {});
    expect(declined.status).toBe(422);
    expect(declined.body.error.message).toMatch(/^Bridge did not start the KYC check/);
    expect((await get(`${USERS}/${userId}/kyc`)).status).toBe(404);
  });

  test("wallets: USD a virtual account (ACH / wire), EUR an IBAN, USDC a liquidation address, each into the customer's Bridge wallet", async () => {
    const { userId, customerId } = await approvedEndUser();
    const usd = await openWallet(userId, 'usd');
    const eur = await openWallet(userId, 'eur');
    const usdc = await openWallet(userId, 'usdc');
    const instructions = async (walletId: string) =>
      (await get(`${USERS}/${userId}/wallets/${walletId}/deposit_instructions`)).body.data;

    const usdRefs = await providerRefsOf(usd);
    const usdAccount = fake.object(usdRefs.virtualAccountId)!;
    expect(usdAccount).toMatchObject({
      customer_id: customerId,
      destination: { bridge_wallet_id: usdRefs.bridgeWalletId, currency: 'usdb' },
    });
    const usdDeposit = usdAccount.source_deposit_instructions as Record<string, string>;
    expect(await instructions(usd)).toMatchObject({
      accountNumber: usdDeposit.bank_account_number,
      routingNumber: '101019644',
      iban: null,
      bankName: 'Lead Bank',
      accountType: 'checking',
      walletAddress: null,
      depositInstructions: { method: 'bank_transfer', scheme: 'ach_push, wire', bankAddress: usdDeposit.bank_address },
    });
    expect(await instructions(eur)).toMatchObject({
      accountNumber: null,
      routingNumber: null,
      iban: 'DE89370400440532013000',
      accountType: 'iban',
      depositInstructions: { method: 'bank_transfer', scheme: 'sepa', bic: 'COBADEFFXXX' },
    });
    const usdcRefs = await providerRefsOf(usdc);
    const address = fake.object(usdcRefs.liquidationAddressId)!;
    expect(await instructions(usdc)).toMatchObject({
      accountNumber: null,
      walletAddress: address.address,
      chain: 'ethereum',
      depositInstructions: { method: 'crypto', asset: 'USDC', address: address.address },
    });
    // Never shown: Bridge's own ids.
    expect(JSON.stringify(await instructions(usd))).not.toContain(usdRefs.bridgeWalletId);
    // Every create was keyed by Tessera's wallet id.
    expect(fake.requests.filter((item) => item.method === 'POST' && item.idempotencyKey?.endsWith(usd))).toHaveLength(
      2,
    );
  });

  test('wallets: Bridge not answering is 503 with no wallet', async () => {
    const { userId } = await approvedEndUser();
    fake.failNext(1, 503);
    const refused = await post(`${USERS}/${userId}/wallets`, { currency: 'usd' });
    expect(refused.status).toBe(503);
    expect((await get(`${USERS}/${userId}/wallets`)).body.data.total).toBe(0);
  });

  test('deposits: announced by Bridge, credited through the ledger once, however often Bridge tells it', async () => {
    const { userId } = await approvedEndUser();
    const usd = await openWallet(userId, 'usd');
    const usdc = await openWallet(userId, 'usdc');
    const refs = await providerRefsOf(usd);
    const activity = fake.depositToVirtualAccount(refs.virtualAccountId, '100.0');
    await waitUntil(async () => (await balanceOf(userId, usd)) === '100.00', 'USD deposit credited');
    // The same deposit again: the same event (a repeat) and a later event of the same deposit.
    const [delivered] = fake.deliveries.slice(-1);
    expect(await fake.send(delivered.url, delivered.event)).toBe(200);
    const updated = fake.event('virtual_account.activity', 'updated', { ...activity, type: 'funds_received' });
    expect(await fake.send(delivered.url, updated)).toBe(200);
    expect((await storedEvent(updated.event_id))[0].outcome).toBe('ignored');
    expect(await balanceOf(userId, usd)).toBe('100.00');
    expect(
      (await query(`SELECT count(*)::int AS n FROM provider_events WHERE event_id = $1`, [delivered.event.event_id]))[0]
        .n,
    ).toBe(1);

    fake.depositToLiquidationAddress((await providerRefsOf(usdc)).liquidationAddressId, '25.5');
    await waitUntil(async () => (await balanceOf(userId, usdc)) === '25.500000', 'USDC deposit credited');
    const postings = await query(
      `SELECT count(*)::int AS n FROM journal_transactions WHERE kind = 'treasury_deposit' AND reference_id LIKE $1`,
      [`${usd}:%`],
    );
    expect(postings[0].n).toBe(1);
    expect(await eventsNamed('treasury.deposit.received')).toBeGreaterThanOrEqual(2);
    await expectLedgerBalanced(server);
  });

  test("payouts: a Bridge transfer keyed by the payout id, from the customer's Bridge wallet; Bridge's webhooks complete it, ledger exact", async () => {
    const { userId, customerId } = await approvedEndUser();
    const usd = await openWallet(userId, 'usd');
    const refs = await providerRefsOf(usd);
    fake.depositToVirtualAccount(refs.virtualAccountId, '100.00');
    await waitUntil(async () => (await balanceOf(userId, usd)) === '100.00', 'funded');

    const created = await bankPayout(userId, usd, '40.00');
    expect(created.status).toBe(201);
    const payoutId = created.body.data.id as string;
    const [transfer] = await transferOf(payoutId);
    expect(transfer).toMatchObject({
      on_behalf_of: customerId,
      amount: '40.00',
      source: { bridge_wallet_id: refs.bridgeWalletId, currency: 'usdb' },
      destination: { payment_rail: 'ach', currency: 'usd' },
    });
    const request = fake.requests.find((item) => item.path === '/v0/transfers' && item.method === 'POST');
    expect(request?.idempotencyKey).toBe(payoutId);
    await waitUntil(
      async () =>
        (await query(`SELECT provider_ref FROM treasury_payouts WHERE id = $1`, [payoutId]))[0].provider_ref ===
        transfer.id,
      'the transfer recorded',
    );
    expect((await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status).toBe('PROCESSING');
    expect(await balanceOf(userId, usd)).toBe('60.00');

    fake.completeTransfer(transfer.id);
    expect((await payoutStatus(payoutId, 'COMPLETED')).status).toBe('COMPLETED');
    expect(await balanceOf(userId, usd)).toBe('60.00');
    const settled = await query(
      `SELECT count(*)::int AS n FROM journal_transactions WHERE kind = 'treasury_payout_settle' AND reference_id = $1`,
      [payoutId],
    );
    expect(settled[0].n).toBe(1);
    // A late, repeated failure of the same transfer changes nothing.
    fake.failTransfer(transfer.id);
    await fake.deliveriesSettled();
    expect((await storedEvent(fake.deliveries.at(-1)!.event.event_id))[0].outcome).toBe('ignored');
    expect((await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status).toBe('COMPLETED');
    await expectLedgerBalanced(server);
  });

  /** A funded USD wallet and a bank payout of it that Bridge took (PROCESSING, its transfer recorded). */
  const processingPayout = async (amount: string) => {
    const { userId } = await approvedEndUser();
    const usd = await openWallet(userId, 'usd');
    const refs = await providerRefsOf(usd);
    fake.depositToVirtualAccount(refs.virtualAccountId, '100.00');
    await waitUntil(async () => (await balanceOf(userId, usd)) === '100.00', 'funded');
    const created = await bankPayout(userId, usd, amount);
    expect(created.status).toBe(201);
    const payoutId = created.body.data.id as string;
    const [transfer] = await transferOf(payoutId);
    await waitUntil(
      async () =>
        (await query(`SELECT provider_ref FROM treasury_payouts WHERE id = $1`, [payoutId]))[0].provider_ref ===
        transfer.id,
      'the transfer recorded',
    );
    return { userId, usd, payoutId, transfer };
  };
  const system = () => RequestContext.system(server.runtime.dataSource, 'test');
  const poll = () => server.runtime.core.treasuryPayouts.pollLateProcessing(system(), { olderThanSeconds: 0 });
  const postingsOf = async (payoutId: string) =>
    (await query(`SELECT kind FROM journal_transactions WHERE reference_id = $1 ORDER BY kind`, [payoutId])).map(
      (row) => row.kind as string,
    );

  test("payouts: a transfer whose webhook is lost: the status poll reads Bridge's transfer by its id and completes the payout once", async () => {
    const { userId, usd, payoutId, transfer } = await processingPayout('30.00');
    // Under way at Bridge: the poll asks and leaves the payout as it is.
    expect(await poll()).not.toContain(payoutId);
    expect(fake.requests.some((item) => item.method === 'GET' && item.path === `/v0/transfers/${transfer.id}`)).toBe(
      true,
    );
    const restore = fake.loseWebhooks();
    fake.completeTransfer(transfer.id);
    restore();
    expect((await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status).toBe('PROCESSING');
    // Not late yet (taken moments ago): the cron's own threshold leaves it alone.
    expect(await server.runtime.core.treasuryPayouts.pollLateProcessing(system())).not.toContain(payoutId);

    // Bridge not answering about it: left for the next run, nothing moved.
    fake.failNext(1, 503, `/v0/transfers/${transfer.id}`);
    expect(await poll()).not.toContain(payoutId);
    expect((await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status).toBe('PROCESSING');

    expect(await poll()).toContain(payoutId);
    expect((await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status).toBe('COMPLETED');
    expect(await poll()).not.toContain(payoutId);
    expect(await postingsOf(payoutId)).toEqual(['treasury_payout_debit', 'treasury_payout_settle']);
    expect(await balanceOf(userId, usd)).toBe('70.00');
    expect(await eventsNamed('treasury.payout.completed')).toBeGreaterThanOrEqual(1);
    await expectLedgerBalanced(server);
  });

  test('payouts: a returned transfer whose webhook is lost: the poll fails the payout and reverses the debit once', async () => {
    const { userId, usd, payoutId, transfer } = await processingPayout('25.00');
    const restore = fake.loseWebhooks();
    fake.returnTransfer(transfer.id);
    restore();
    expect(await poll()).toContain(payoutId);
    const payout = (await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data;
    expect(payout).toMatchObject({ status: 'FAILED', failureReason: 'bridge_transfer_returned' });
    expect(await postingsOf(payoutId)).toEqual(['treasury_payout_debit', 'treasury_payout_reverse']);
    expect(await balanceOf(userId, usd)).toBe('100.00');
    await expectLedgerBalanced(server);
  });

  test("payouts: Bridge's late webhook and the status poll racing complete the payout once", async () => {
    const { userId, usd, payoutId, transfer } = await processingPayout('10.00');
    const restore = fake.loseWebhooks();
    fake.completeTransfer(transfer.id);
    restore();
    const event = fake.event('transfer', 'updated.status_transitioned', fake.object(transfer.id)!, 'state');
    const [delivered, ...polls] = await Promise.all([
      fake.send(`${server.baseUrl}${WEBHOOKS_PATH}`, event),
      poll(),
      poll(),
      poll(),
    ]);
    expect(delivered).toBe(200);
    expect(polls.filter((moved) => moved.includes(payoutId)).length).toBeLessThanOrEqual(1);
    await payoutStatus(payoutId, 'COMPLETED');
    await storedEvent(event.event_id);
    expect(await postingsOf(payoutId)).toEqual(['treasury_payout_debit', 'treasury_payout_settle']);
    expect(await eventsNamed('treasury.payout.completed')).toBeGreaterThanOrEqual(1);
    const completedEvents = await query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'treasury.payout.completed' AND data -> 'object' ->> 'id' = $1`,
      [payoutId],
    );
    expect(completedEvents[0].n).toBe(1);
    expect(await balanceOf(userId, usd)).toBe('90.00');
    await expectLedgerBalanced(server);
  });

  test('payouts: a transfer Bridge returns fails the payout and reverses the debit once', async () => {
    const { userId } = await approvedEndUser();
    const usd = await openWallet(userId, 'usd');
    fake.depositToVirtualAccount((await providerRefsOf(usd)).virtualAccountId, '50.00');
    await waitUntil(async () => (await balanceOf(userId, usd)) === '50.00', 'funded');
    const payoutId = (await bankPayout(userId, usd, '20.00')).body.data.id as string;
    const [transfer] = await transferOf(payoutId);
    fake.returnTransfer(transfer.id);
    const failed = await payoutStatus(payoutId, 'FAILED');
    expect(failed.failureReason).toBe('bridge_transfer_returned');
    expect(await balanceOf(userId, usd)).toBe('50.00');
    await expectLedgerBalanced(server);
  });

  test('payouts: USDC to an address; mobile money is refused by Bridge and the payout fails, reversed', async () => {
    const { userId } = await approvedEndUser();
    const usdc = await openWallet(userId, 'usdc');
    fake.depositToLiquidationAddress((await providerRefsOf(usdc)).liquidationAddressId, '10');
    await waitUntil(async () => (await balanceOf(userId, usdc)) === '10.000000', 'funded');
    const crypto = await post(TREASURY_PAYOUTS, {
      partnerEndUserId: userId,
      partnerWalletId: usdc,
      amount: '4.5',
      destinationType: 'crypto',
      destination: { address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F', chain: 'ethereum' },
    });
    const [transfer] = await transferOf(crypto.body.data.id);
    expect(transfer).toMatchObject({
      amount: '4.500000',
      destination: {
        payment_rail: 'ethereum',
        currency: 'usdc',
        to_address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
      },
    });
    fake.completeTransfer(transfer.id);
    await payoutStatus(crypto.body.data.id, 'COMPLETED');

    const mobile = await post(TREASURY_PAYOUTS, {
      partnerEndUserId: userId,
      partnerWalletId: usdc,
      amount: '1',
      destinationType: 'mobile_money',
      destination: { phone: '+254712345678', networkId: 'mpesa', country: 'KE' },
    });
    const failed = await payoutStatus(mobile.body.data.id, 'FAILED');
    expect(failed.failureReason).toBe('bridge_refused_destination_not_supported');
    expect(await balanceOf(userId, usdc)).toBe('5.500000');
    await expectLedgerBalanced(server);
  });

  test("payouts: Bridge's answer lost after it made the transfer: the retry finds it by the payout id, one transfer", async () => {
    const { userId } = await approvedEndUser();
    const usd = await openWallet(userId, 'usd');
    fake.depositToVirtualAccount((await providerRefsOf(usd)).virtualAccountId, '30.00');
    await waitUntil(async () => (await balanceOf(userId, usd)) === '30.00', 'funded');
    fake.dropAfterCommit(1, '/v0/transfers');
    const payoutId = (await bankPayout(userId, usd, '10.00')).body.data.id as string;
    const [transfer] = await transferOf(payoutId);
    await waitUntil(
      async () =>
        (await query(`SELECT provider_ref FROM treasury_payouts WHERE id = $1`, [payoutId]))[0].provider_ref ===
        transfer.id,
      'the retry recorded the transfer Bridge made',
    );
    expect(fake.list('transfer').filter((item) => item.client_reference_id === payoutId)).toHaveLength(1);
    // The retry asked Bridge before creating again: no second POST of the transfer.
    expect(
      fake.requests.filter((item) => item.path === '/v0/transfers' && item.idempotencyKey === payoutId),
    ).toHaveLength(1);
    fake.completeTransfer(transfer.id);
    await payoutStatus(payoutId, 'COMPLETED');
    expect(await balanceOf(userId, usd)).toBe('20.00');
    await expectLedgerBalanced(server);
  });
});

describe("Bridge's client", () => {
  let fake: FakeBridge;
  beforeAll(async () => {
    fake = await new FakeBridge().start();
  });
  afterAll(async () => {
    await fake?.close();
  });

  test('a request that outlasts the timeout is SERVICE_UNAVAILABLE; asked again under its Idempotency-Key, Bridge answers the object it made', async () => {
    const client = new BridgeClient(fake.settings, 200);
    fake.delayNext(1000);
    await expect(
      client.post('/kyc_links', { email: 'slow@example.com', type: 'individual' }, 'check-slow'),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const again = await client.post<{ id: string }>(
      '/kyc_links',
      { email: 'slow@example.com', type: 'individual' },
      'check-slow',
    );
    expect(fake.list('kyc_link').map((link) => link.id)).toEqual([again.id]);
    expect(fake.requests.at(-1)).toMatchObject({ replayed: true });
  });

  test('a wrong key is refused by Bridge (401), a POST without Idempotency-Key too (400)', async () => {
    await expect(new BridgeClient({ ...fake.settings, apiKey: 'sk-wrong' }).get('/transfers/x')).rejects.toBeInstanceOf(
      BridgeApiError,
    );
    const response = await fetch(`${fake.baseUrl}/v0/kyc_links`, {
      method: 'POST',
      headers: { 'Api-Key': fake.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', type: 'individual' }),
    });
    expect(response.status).toBe(400);
  });

  test("amounts: Tessera's minor units as Bridge's decimal strings and back, exactly", () => {
    expect(bridgeAmountOf(4000n, 'USD')).toBe('40.00');
    expect(bridgeAmountOf(5n, 'EUR')).toBe('0.05');
    expect(bridgeAmountOf(4_500_000n, 'USDC')).toBe('4.500000');
    expect(tesseraAmountOf('1970.0', 'USD')).toBe(197000n);
    expect(tesseraAmountOf('25.5', 'USDC')).toBe(25_500_000n);
    expect(tesseraAmountOf('10', 'EUR')).toBe(1000n);
    expect(() => tesseraAmountOf('1.234', 'USD')).toThrow(/finer/);
    expect(() => tesseraAmountOf('-1', 'USD')).toThrow(/not an amount/);
  });
});

describe('Bridge settings', () => {
  const pem = () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { generateKeyPairSync } = require('node:crypto') as typeof import('node:crypto');
    return generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
  };

  test('unset: no Bridge; both set: config.bridge with the default API base', () => {
    expect(loadConfig({}).bridge).toBeUndefined();
    const key = pem();
    expect(loadConfig({ BRIDGE_API_KEY: 'sk-live-abc', BRIDGE_WEBHOOK_PUBLIC_KEY: key }).bridge).toEqual({
      apiKey: 'sk-live-abc',
      webhookPublicKey: key,
      apiBase: 'https://api.bridge.xyz',
    });
    // A PEM on one line with \n escapes, as environments carry it.
    expect(
      loadConfig({ BRIDGE_API_KEY: 'k', BRIDGE_WEBHOOK_PUBLIC_KEY: key.replace(/\n/g, '\\n') }).bridge
        ?.webhookPublicKey,
    ).toBe(key);
  });

  test('one without the other, or a public key that is not one: a one-line error naming the variable, never the value', () => {
    expect(() => loadConfig({ BRIDGE_API_KEY: 'sk-secret-value' })).toThrow(/BRIDGE_WEBHOOK_PUBLIC_KEY/);
    expect(() => loadConfig({ BRIDGE_WEBHOOK_PUBLIC_KEY: pem() })).toThrow(/BRIDGE_API_KEY is not/);
    let message = '';
    try {
      loadConfig({
        BRIDGE_API_KEY: 'sk-secret-value',
        BRIDGE_WEBHOOK_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/BRIDGE_WEBHOOK_PUBLIC_KEY must be the RSA public key/);
    expect(message).not.toContain('sk-secret-value');
    expect(message).not.toContain('\n');
    expect(() =>
      loadConfig({ BRIDGE_API_KEY: 'k', BRIDGE_WEBHOOK_PUBLIC_KEY: pem(), BRIDGE_API_BASE: 'ftp://x' }),
    ).toThrow(/BRIDGE_API_BASE/);
  });
});
