import crypto from 'node:crypto';
import { BRIDGE_SIGNATURE_TOLERANCE_MS } from '../src/providers/treasury-rail/bridge-webhooks';
import { FakeBridge } from './support/fake-bridge';
import { TestMerchant, TestServer, startDeliveringServer } from './support/harness';
import { expectLedgerBalanced } from './support/payments';
import { TREASURY_PAYOUTS, USERS, treasuryPartner } from './support/treasury';
import { waitFor, waitUntil } from './support/wait';

const WEBHOOKS_PATH = '/providers/bridge/webhooks';

/**
 * Issue 30: Bridge's webhooks at `POST /providers/bridge/webhooks`, through the inbox. The signature
 * (`X-Webhook-Signature: t=<ms>,v0=<base64 RSA-SHA256 over "<t>.<raw body>">`, checked with the
 * endpoint's public key) is checked over the exact bytes; a tampered, stale (more than 10 minutes,
 * Bridge's advice: 400 so that it retries with a fresh signature), unsigned or foreign-signed delivery
 * is 400 and nothing is stored; a repeat is stored and applied once; events out of order leave the
 * final state; an unknown event is stored and marked ignored.
 */
describe("Bridge's webhooks", () => {
  let fake: FakeBridge;
  let server: TestServer;
  let partner: TestMerchant;
  let live: Record<string, string>;
  let url: string;

  beforeAll(async () => {
    fake = await new FakeBridge().start();
    server = await startDeliveringServer({ bridge: fake.settings });
    url = `${server.baseUrl}${WEBHOOKS_PATH}`;
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
  const stored = (eventId: string) =>
    query(`SELECT type, outcome, livemode FROM provider_events WHERE provider = 'bridge' AND event_id = $1`, [eventId]);
  const settled = (eventId: string) =>
    waitFor(
      () => stored(eventId),
      (rows) => rows.length === 1 && rows[0].outcome !== null,
    );

  let sequence = 0;
  /** A live end-user with a PENDING Bridge KYC check: its id and Bridge customer. */
  const pendingEndUser = async () => {
    sequence += 1;
    const created = await post(USERS, { externalId: `hook-${sequence}`, email: `hook${sequence}@example.com` });
    const userId = created.body.data.id as string;
    expect((await post(`${USERS}/${userId}/kyc`, {})).status).toBe(201);
    const link = fake.list('kyc_link').at(-1)!;
    return { userId, link };
  };
  const kycStatus = async (userId: string) => (await get(`${USERS}/${userId}/kyc`)).body.data.status as string;
  const approvedEvent = (link: Record<string, unknown>) =>
    fake.event(
      'kyc_link',
      'updated.status_transitioned',
      { ...link, id: String(link.id), kyc_status: 'approved' },
      'kyc_status',
    );

  test('a signed event is 200, stored once as a live event of its `<category>.<mutation>` type, and applied', async () => {
    const { userId, link } = await pendingEndUser();
    const event = approvedEvent(link);
    expect(await fake.send(url, event)).toBe(200);
    const [row] = await settled(event.event_id);
    expect(row).toEqual({ type: 'kyc_link.updated.status_transitioned', outcome: 'applied', livemode: true });
    expect(await kycStatus(userId)).toBe('APPROVED');
  });

  test('an event_type given as the mutation alone is read as <category>.<mutation>', async () => {
    const { userId, link } = await pendingEndUser();
    const event: Record<string, any> = { ...approvedEvent(link), event_type: 'updated.status_transitioned' };
    expect(await fake.send(url, event)).toBe(200);
    expect((await settled(event.event_id))[0].type).toBe('kyc_link.updated.status_transitioned');
    expect(await kycStatus(userId)).toBe('APPROVED');
  });

  test('tampered, stale, unsigned, signed with another key, or not base64: 400, nothing stored, nothing applied', async () => {
    const { userId, link } = await pendingEndUser();
    const event = approvedEvent(link);
    const payload = JSON.stringify(event);
    const signature = fake.sign(payload);
    const tampered = payload.replace('"approved"', '"rejected"');
    expect(await fake.send(url, event, { payload: tampered, signature })).toBe(400);
    const stale = fake.sign(payload, Date.now() - BRIDGE_SIGNATURE_TOLERANCE_MS - 60_000);
    expect(await fake.send(url, event, { signature: stale })).toBe(400);
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const t = Date.now();
    const foreign = crypto.sign('sha256', Buffer.from(`${t}.${payload}`), other).toString('base64');
    expect(await fake.send(url, event, { signature: `t=${t},v0=${foreign}` })).toBe(400);
    expect(await fake.send(url, event, { signature: `t=${t},v0=not*base64` })).toBe(400);
    const unsigned = await server.request('POST', WEBHOOKS_PATH, {
      rawBody: payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(400);
    expect(await stored(event.event_id)).toEqual([]);
    expect(await kycStatus(userId)).toBe('PENDING');
    // Bridge's retry, signed anew, is taken.
    expect(await fake.send(url, event)).toBe(200);
    await settled(event.event_id);
    expect(await kycStatus(userId)).toBe('APPROVED');
  });

  test('a repeated event is stored and applied once: one decision, one treasury.kyc.approved', async () => {
    const { userId, link } = await pendingEndUser();
    const event = approvedEvent(link);
    const answers = await Promise.all([fake.send(url, event), fake.send(url, event), fake.send(url, event)]);
    expect(answers).toEqual([200, 200, 200]);
    await settled(event.event_id);
    expect(await kycStatus(userId)).toBe('APPROVED');
    const [events] = await query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'treasury.kyc.approved' AND data -> 'object' ->> 'partnerEndUserId' = $1`,
      [userId],
    );
    expect(events.n).toBe(1);
    expect(
      (await query(`SELECT count(*)::int AS n FROM provider_events WHERE event_id = $1`, [event.event_id]))[0].n,
    ).toBe(1);
  });

  test('reordered: an earlier status arriving after the decision leaves it; a transfer finished before its earlier states stays finished', async () => {
    const { userId, link } = await pendingEndUser();
    const underReview = fake.event('kyc_link', 'updated', { ...link, id: String(link.id), kyc_status: 'under_review' });
    const approved = approvedEvent(link);
    // Each is applied by a job of its own, so the decision is awaited before the earlier status is sent.
    expect(await fake.send(url, approved)).toBe(200);
    expect((await settled(approved.event_id))[0].outcome).toBe('applied');
    expect(await fake.send(url, underReview)).toBe(200);
    expect((await settled(underReview.event_id))[0].outcome).toBe('ignored');
    expect(await kycStatus(userId)).toBe('APPROVED');

    // A funded USD wallet and a payout whose transfer events arrive out of order.
    fake.decideKyc(String(link.customer_id), 'approved'); // at Bridge too (not delivered: no endpoint yet)
    fake.deliverTo(url);
    const wallet = (await post(`${USERS}/${userId}/wallets`, { currency: 'usd' })).body.data.id as string;
    const [refs] = await query(`SELECT deposit_account -> 'providerRefs' AS refs FROM treasury_wallets WHERE id = $1`, [
      wallet,
    ]);
    fake.depositToVirtualAccount(refs.refs.virtualAccountId, '10.00');
    const balance = async () => (await get(`${USERS}/${userId}/wallets/${wallet}`)).body.data.balance as string;
    await waitUntil(async () => (await balance()) === '10.00', 'funded');
    const payout = await post(TREASURY_PAYOUTS, {
      partnerEndUserId: userId,
      partnerWalletId: wallet,
      amount: '4.00',
      destinationType: 'crypto',
      destination: { address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F', chain: 'base' },
    });
    const payoutId = payout.body.data.id as string;
    const [transfer] = await waitFor(
      async () => fake.list('transfer').filter((item) => item.client_reference_id === payoutId),
      (found) => found.length === 1,
    );
    await waitUntil(
      async () => (await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status === 'PROCESSING',
      'processing',
    );
    const processed = fake.event(
      'transfer',
      'updated.status_transitioned',
      { ...transfer, state: 'payment_processed' },
      'state',
    );
    const submitted = fake.event(
      'transfer',
      'updated.status_transitioned',
      { ...transfer, state: 'payment_submitted' },
      'state',
    );
    expect(await fake.send(url, processed)).toBe(200);
    expect((await settled(processed.event_id))[0].outcome).toBe('applied');
    expect(await fake.send(url, submitted)).toBe(200);
    expect((await settled(submitted.event_id))[0].outcome).toBe('ignored');
    await waitUntil(
      async () => (await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status === 'COMPLETED',
      'completed',
    );
    expect(await balance()).toBe('6.00');
    await expectLedgerBalanced(server);
  });

  test('unknown: a category Tessera has no handler for, or an object of no Tessera resource, is 200, stored and marked ignored', async () => {
    const memo = fake.event('static_memo.activity', 'created', { id: 'sm_1', type: 'funds_received', amount: '5.0' });
    expect(await fake.send(url, memo)).toBe(200);
    expect((await settled(memo.event_id))[0]).toMatchObject({
      type: 'static_memo.activity.created',
      outcome: 'ignored',
    });
    const foreignTransfer = fake.event('transfer', 'updated', {
      id: 'transfer_other',
      state: 'payment_processed',
      client_reference_id: null,
    });
    expect(await fake.send(url, foreignTransfer)).toBe(200);
    expect((await settled(foreignTransfer.event_id))[0].outcome).toBe('ignored');
    const unknownCustomer = fake.event('customer', 'updated.status_transitioned', {
      id: 'cust_nobody',
      status: 'active',
    });
    expect(await fake.send(url, unknownCustomer)).toBe(200);
    expect((await settled(unknownCustomer.event_id))[0].outcome).toBe('ignored');
    const otherAccount = fake.event('virtual_account.activity', 'created', {
      id: 'va_evt_x',
      type: 'funds_received',
      amount: '9.0',
      currency: 'usd',
      virtual_account_id: 'va_not_ours',
      deposit_id: 'dep_x',
    });
    expect(await fake.send(url, otherAccount)).toBe(200);
    expect((await settled(otherAccount.event_id))[0].outcome).toBe('ignored');
  });
});
