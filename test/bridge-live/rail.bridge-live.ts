import crypto from 'node:crypto';
import { BridgeKycProvider } from '../../src/providers/kyc/bridge';
import { BridgeClient, BridgeKycLink } from '../../src/providers/treasury-rail/bridge-client';
import { BridgeTreasuryRail } from '../../src/providers/treasury-rail/bridge';

/**
 * Against Bridge's sandbox (scripts/bridge-live.js starts it only with BRIDGE_SANDBOX_API_KEY set):
 * the adapter's requests as Bridge really takes them. A KYC link makes a customer (its URL is the
 * check's kycLinkUrl), and asking again under the same check id is the same link; the transfer
 * lookup by Tessera's reference reads the customer's transfers. What needs an approved customer
 * (wallets, virtual accounts, transfers) depends on the sandbox account's products and is left to
 * the fake-backed suites.
 */
const settings = {
  apiKey: process.env.BRIDGE_SANDBOX_API_KEY ?? '',
  apiBase: process.env.BRIDGE_SANDBOX_API_BASE ?? 'https://api.sandbox.bridge.xyz',
};

describe("Bridge's sandbox", () => {
  const client = new BridgeClient(settings);

  test('a KYC check is a KYC link of a new customer; starting it again under the same check id is the same link', async () => {
    const kyc = new BridgeKycProvider(settings);
    const checkId = crypto.randomUUID();
    const request = {
      checkId,
      endUserId: crypto.randomUUID(),
      level: 'basic' as const,
      email: `tessera-${checkId.slice(0, 8)}@example.com`,
      name: 'Tessera Sandbox',
    };
    const started = await kyc.start(request);
    expect(started.providerRef).toEqual(expect.any(String));
    expect(started.hostedUrl).toMatch(/^https?:\/\//);
    expect(await kyc.start(request)).toEqual(started);
    const links = await client.get<{ data: BridgeKycLink[] }>('/kyc_links', { customer_id: started.providerRef });
    expect(links.data.map((link) => link.customer_id)).toContain(started.providerRef);

    // No transfer of an unknown payout: the lookup by Tessera's reference answers none.
    const rail = new BridgeTreasuryRail(settings);
    expect(await rail.transferOf(started.providerRef, crypto.randomUUID())).toBeNull();
  });
});
