import { loadConfig } from '../src/config';
import { YellowCardClient, YellowCardRefusal } from '../src/providers/yellowcard/client';
import { FakeYellowCard, YC_CHANNELS, YC_NETWORKS } from './support/fake-yellowcard';

/** Issue 30: the Yellow Card client signs as Yellow Card requires, and the local fake checks it. */
describe('Yellow Card client against the local fake', () => {
  let fake: FakeYellowCard;
  let client: YellowCardClient;

  beforeAll(async () => {
    fake = await new FakeYellowCard().start();
    client = new YellowCardClient(fake.settings, 1_000);
  });
  afterAll(() => fake.close());

  test('signed reads: channels, networks and rates', async () => {
    expect((await client.channels()).map((channel) => channel.id)).toEqual(YC_CHANNELS.map((channel) => channel.id));
    expect((await client.networks()).map((network) => network.id)).toEqual(YC_NETWORKS.map((network) => network.id));
    expect((await client.rates()).find((rate) => rate.code === 'NGN')).toMatchObject({ buy: 1600, sell: 1550 });
    expect(fake.requests.slice(-3).map((request) => [request.method, request.path, request.status])).toEqual([
      ['GET', '/channels', 200],
      ['GET', '/networks', 200],
      ['GET', '/rates', 200],
    ]);
  });

  test('a wrong secret is refused by the fake with 401 in Yellow Card’s error shape, as a refusal', async () => {
    const wrong = new YellowCardClient({ ...fake.settings, apiSecret: 'not-the-secret' }, 1_000);
    const refusal = await wrong.channels().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(YellowCardRefusal);
    expect(refusal).toMatchObject({ status: 401, code: 'UnauthorizedError', message: 'Invalid signature' });
    const otherKey = new YellowCardClient({ ...fake.settings, apiKey: 'someone-else' }, 1_000);
    await expect(otherKey.rates()).rejects.toMatchObject({ status: 401, message: 'Invalid api key' });
  });

  test('a signed body: a payment is created, found by its sequence id, accepted; a repeated sequence id is refused', async () => {
    const body = {
      channelId: YC_CHANNELS[0].id,
      sequenceId: 'seq-client-1',
      localAmount: 15500,
      reason: 'other',
      customerType: 'institution' as const,
      forceAccept: false,
      sender: { businessName: 'Tessera test' },
      destination: {
        accountNumber: '0123456789',
        accountType: 'bank' as const,
        networkId: YC_NETWORKS[0].id,
        accountName: 'Ada Obi',
      },
    };
    const created = await client.createPayment(body);
    expect(created).toMatchObject({
      sequenceId: 'seq-client-1',
      status: 'pending_approval',
      localAmount: 15500,
      amount: 10,
    });
    expect(await client.paymentBySequenceId('seq-client-1')).toMatchObject({ id: created.id });
    expect(await client.paymentBySequenceId('seq-unknown')).toBeNull();
    expect(await client.acceptPayment(created.id)).toMatchObject({ status: 'processing' });
    await expect(client.createPayment(body)).rejects.toMatchObject({
      status: 400,
      code: 'PaymentSequenceIdExistsError',
    });
    expect(fake.payments()).toHaveLength(1);
  });

  test('a 5xx, a timeout and a lost answer are SERVICE_UNAVAILABLE (503)', async () => {
    fake.failNext(1, 503);
    await expect(client.rates()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    fake.delayNext(1_500);
    await expect(client.rates()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    fake.dropAfterCommit(1);
    await expect(client.channels()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect((await client.rates()).length).toBeGreaterThan(0);
  });

  test('configuration: key and secret or neither, one-line errors naming the variable, never the value', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).yellowcard).toBeUndefined();
    expect(
      loadConfig({ NODE_ENV: 'test', YELLOWCARD_API_KEY: 'k1', YELLOWCARD_API_SECRET: 's3cret' }).yellowcard,
    ).toEqual({
      apiKey: 'k1',
      apiSecret: 's3cret',
      apiBase: 'https://api.yellowcard.io/business',
    });
    expect(() => loadConfig({ NODE_ENV: 'test', YELLOWCARD_API_KEY: 'k1' })).toThrow(
      'YELLOWCARD_API_KEY is set but YELLOWCARD_API_SECRET is not: set both, or neither (docs/live.md)',
    );
    expect(() => loadConfig({ NODE_ENV: 'test', YELLOWCARD_API_SECRET: 'topsecretvalue' })).toThrow(
      /^Configuration error: YELLOWCARD_API_SECRET is set but YELLOWCARD_API_KEY is not/,
    );
    let message = '';
    try {
      loadConfig({
        NODE_ENV: 'test',
        YELLOWCARD_API_KEY: 'k1',
        YELLOWCARD_API_SECRET: 's',
        YELLOWCARD_API_BASE: 'nope',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Configuration error: YELLOWCARD_API_BASE/);
    expect(message).not.toContain('\n');
  });
});
