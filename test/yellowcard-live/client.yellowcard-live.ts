import type { YellowcardSettings } from '../../src/config';
import { ReachableFx } from '../../src/providers/fx/reachable';
import { YellowCardClient, YellowCardRefusal } from '../../src/providers/yellowcard/client';
import { YellowCardConnection } from '../../src/providers/yellowcard/connection';
import { YellowCardFx } from '../../src/providers/yellowcard/fx';

/**
 * Against Yellow Card's real sandbox (opt-in: `npm run test:yellowcard-live`): the request signing
 * is accepted (a wrong secret is not), the catalogue and rates read as the adapters expect, a
 * payment asked by an unknown sequence id is 404 (null), and live quotes come from its rates.
 */
const settings: YellowcardSettings = {
  apiKey: process.env.YELLOWCARD_SANDBOX_API_KEY ?? '',
  apiSecret: process.env.YELLOWCARD_SANDBOX_API_SECRET ?? '',
  apiBase: process.env.YELLOWCARD_SANDBOX_API_BASE || 'https://sandbox.api.yellowcard.io/business',
};

describe("Yellow Card's sandbox", () => {
  const client = new YellowCardClient(settings, 30_000);

  test('signed reads: channels (with ramp and type), networks (with their channels) and rates (buy and sell)', async () => {
    const channels = await client.channels();
    expect(channels.length).toBeGreaterThan(0);
    expect(channels[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), country: expect.any(String), currency: expect.any(String) }),
    );
    expect(channels.some((channel) => channel.rampType === 'withdraw')).toBe(true);
    const networks = await client.networks();
    expect(networks.some((network) => Array.isArray(network.channelIds))).toBe(true);
    const rates = await client.rates();
    expect(rates.some((rate) => rate.buy > 0 && rate.sell > 0)).toBe(true);
  });

  test('a wrong secret is refused (401)', async () => {
    const wrong = new YellowCardClient({ ...settings, apiSecret: `${settings.apiSecret}x` }, 30_000);
    const refusal = await wrong.channels().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(YellowCardRefusal);
    expect((refusal as YellowCardRefusal).status).toBe(401);
  });

  test('a payment asked by a sequence id Yellow Card never saw is null', async () => {
    expect(await client.paymentBySequenceId(`tessera-unknown-${Date.now()}`)).toBeNull();
  });

  test('a live quote from its rates: USD to a quoted currency', async () => {
    const connection = new YellowCardConnection(settings, 30_000);
    const [rate] = (await connection.currentRates()).values();
    const fx = new ReachableFx(new YellowCardFx(connection));
    const offer = await fx.offer({ sourceCurrency: 'USD', destinationCurrency: rate.code, rail: 'LOCAL_BANK' });
    expect(offer.rate.units).toBeGreaterThan(0n);
  });
});
