import { LedgerService } from '../src/domain/ledger/ledger.service';
import { TestServer, startDeliveringServer, waitFor } from './support/harness';
import { PAYOUTS, apiKey, bankDetails, createPayout, createRecipient, fundWallet } from './support/payouts';
import { walletBalance } from './support/payments';

/** Payouts over REST (design section 8; interface document, Business payout). */
describe('Payouts', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 200 });
  });
  afterAll(async () => server.close());

  test('smoke: a payout is created, debits amount + fee, is submitted and settles', async () => {
    const merchant = await server.signUp();
    await fundWallet(server, merchant, '100.00');
    const recipient = await createRecipient(server, merchant);
    const created = await createPayout(server, merchant, { recipientId: recipient.id, amount: '10.00' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'CREATED', amount: '10.00', currency: 'USD', quote: { serviceFee: '0.10', currency: 'NGN', rate: '1542.25000000', dstAmount: '15422.50' } });
    expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 1010n);
    const settled = await waitFor(() => server.request('GET', `${PAYOUTS}/${created.body.data.id}`, { headers: apiKey(merchant) }), (r) => r.body.data.status === 'SETTLED');
    expect(settled.body.data.providerRef).toMatch(/^sbx_po_/);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
  });
});
