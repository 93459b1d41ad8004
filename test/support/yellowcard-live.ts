import { AccountKind } from '../../src/domain/ledger';
import { RequestContext, inTransaction } from '../../src/domain/shared/context';
import { Mode } from '../../src/domain/shared/modes';
import { FakeYellowCard } from './fake-yellowcard';
import { TestMerchant, TestServer, startDeliveringServer } from './harness';

/**
 * A live USD float for a business's live payouts (no live funding helper exists): one balanced
 * move from the provider's clearing account to its live wallet, `amount` in minor units.
 */
export async function fundLiveFloat(server: TestServer, businessId: string, amount: bigint): Promise<void> {
  const { ledger } = server.runtime.core;
  const ctx = RequestContext.system(server.runtime.dataSource, 'test', businessId, Mode.LIVE);
  await inTransaction(ctx, async (tx) => {
    const wallet = await ledger.account(tx, { kind: AccountKind.MERCHANT_WALLET, currency: 'USD', businessId });
    const source = await ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency: 'USD' });
    await ledger.move(tx, {
      kind: 'test_live_float',
      description: 'Live float for the tests of live payouts',
      lines: [
        { account: wallet, amount },
        { account: source, amount: -amount },
      ],
    });
  });
}

/**
 * A Tessera server whose live payout and collection rails are the local fake of Yellow Card (its
 * webhooks delivered to the server), and a live business with `float` (minor units of USD) to pay out.
 */
export async function startYellowCardLive(float: bigint): Promise<{
  fake: FakeYellowCard;
  server: TestServer;
  merchant: TestMerchant & { liveKey: string };
}> {
  const fake = await new FakeYellowCard().start();
  const server = await startDeliveringServer({ yellowcard: fake.settings });
  fake.deliverTo(`${server.baseUrl}/providers/yellowcard/webhooks`);
  const signedUp = await server.signUp();
  const merchant = { ...signedUp, liveKey: await server.liveKeyOf(signedUp) };
  await fundLiveFloat(server, merchant.businessId, float);
  return { fake, server, merchant };
}
