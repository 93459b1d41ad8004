import fs from 'node:fs';
import path from 'node:path';
import { SanctionsLists } from '../src/providers/screening/lists/store';
import { NO_LIST_LOADED } from '../src/providers/screening/official-lists';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { PAYOUTS, bankDetails, dashboard } from './support/payouts';

const RECIPIENTS = `${PAYOUTS}/recipients`;
const FIXTURES = path.join(__dirname, 'fixtures', 'sanctions');
const CREATE_RECIPIENT = `mutation($input: CreatePayoutRecipientInput!) {
  createPayoutRecipient(input: $input) { created recipient { id label screenedAt } userErrors { field message code } } }`;

/**
 * Live recipient creates screened against the official lists the operator loaded (docs/live.md,
 * Sanctions screening), over REST and GraphQL: refused while no list is loaded, 403
 * SANCTIONS_MATCH for a listed name (the match recorded for the operator, never shown to the
 * merchant), created for anyone else; test mode keeps the sandbox's magic word.
 */
describe('live sanctions screening against the loaded lists', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let lists: SanctionsLists;
  const live = () => ({ ...dashboard(merchant), 'x-service-mode': 'live' });
  const liveGraphql = () => ({ authorization: `Bearer ${merchant.token}`, 'x-service-mode': 'live' });

  const recipientRows = async (livemode: boolean): Promise<number> =>
    Number(
      (
        await server.runtime.dataSource.query(
          `SELECT count(*) AS n FROM payout_recipients WHERE business_id = $1 AND livemode = $2`,
          [merchant.businessId, livemode],
        )
      )[0].n,
    );
  const matchRows = async () =>
    server.runtime.dataSource.query(
      `SELECT list, entry_id, entry_name, matched_name, screened_name, score, business_id, livemode, request FROM sanctions_matches WHERE business_id = $1 ORDER BY created_at`,
      [merchant.businessId],
    );
  const load = (list: 'ofac' | 'un' | 'eu', file: string) =>
    lists.load(list, fs.readFileSync(path.join(FIXTURES, file)), file);

  beforeAll(async () => {
    server = await startTestServer();
    lists = new SanctionsLists(server.runtime.dataSource);
    merchant = await server.signUp();
    await server.liveKeyOf(merchant);
  }, 120_000);
  afterAll(() => server?.close());

  test('with no list loaded, a live dashboard create is refused with UNPROCESSABLE (REST and GraphQL), and nothing is stored', async () => {
    const rest = await server.request('POST', RECIPIENTS, {
      headers: live(),
      body: { label: 'Supplier', details: bankDetails('1111') },
    });
    expect(rest.status).toBe(422);
    expect(rest.body).toMatchObject({ error: { code: 'UNPROCESSABLE', message: NO_LIST_LOADED } });

    const graphql = await server.graphql(
      CREATE_RECIPIENT,
      { input: { label: 'Supplier', details: bankDetails('1111') } },
      liveGraphql(),
    );
    expect(JSON.stringify(graphql.body)).toContain(NO_LIST_LOADED);
    expect(graphql.body.data?.createPayoutRecipient?.recipient ?? null).toBeNull();
    expect(await recipientRows(true)).toBe(0);
  });

  describe('with the lists loaded', () => {
    beforeAll(async () => {
      await load('ofac', 'sdn.xml');
      await load('un', 'un-consolidated.xml');
      await load('eu', 'eu-consolidated.xml');
    });

    test('REST: a listed name (an OFAC alias, transliterated) is 403 SANCTIONS_MATCH, stores nothing, and records the match for the operator only', async () => {
      const refused = await server.request('POST', RECIPIENTS, {
        headers: live(),
        body: { label: 'Consulting', details: bankDetails('2222', { accountName: 'Victor Boutski' }) },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('SANCTIONS_MATCH');
      // The merchant hears that it matched, never which entry.
      const said = JSON.stringify(refused.body);
      for (const hidden of ['7001', 'BOUTSKI', 'ofac', 'OFAC', 'score']) expect(said).not.toContain(hidden);
      expect(await recipientRows(true)).toBe(0);

      const [match] = await matchRows();
      expect(match).toMatchObject({
        list: 'ofac',
        entry_id: '7001',
        entry_name: 'Viktor Anatolyevich BOUTSKY',
        matched_name: 'Viktor BOUTSKI',
        screened_name: 'Victor Boutski',
        business_id: merchant.businessId,
        livemode: true,
        request: 'recipient',
      });
      expect(match.score).toBeGreaterThan(0.92);
    });

    test('REST: a name of the UN and EU lists in another order and without diacritics is refused too', async () => {
      for (const accountName of ['Castañeda Núñez José Ramón', 'Nusta Dordevic Alesund', 'Kozlovskaya Tatiana']) {
        const refused = await server.request('POST', RECIPIENTS, {
          headers: live(),
          body: { label: 'Supplier', details: bankDetails('3333', { accountName }) },
        });
        expect({ accountName, status: refused.status, code: refused.body.error?.code }).toEqual({
          accountName,
          status: 403,
          code: 'SANCTIONS_MATCH',
        });
      }
      expect((await matchRows()).map((row: { entry_id: string }) => row.entry_id)).toEqual(
        expect.arrayContaining(['9120', 'LYi.029', '128430']),
      );
      expect(await recipientRows(true)).toBe(0);
    });

    test('REST: near misses are created and screened (a first name alone, a short name a letter off), and nothing is recorded', async () => {
      const before = (await matchRows()).length;
      for (const [ending, accountName] of [
        ['4441', 'Mohammed'],
        ['4442', 'Li Won Ho'],
        ['4443', 'Ada Obi'],
      ]) {
        const created = await server.request('POST', RECIPIENTS, {
          headers: live(),
          body: { label: 'Supplier', details: bankDetails(ending, { accountName }) },
        });
        expect({ accountName, status: created.status }).toEqual({ accountName, status: 201 });
        expect(created.body.data.screenedAt).toEqual(expect.any(String));
      }
      expect(await recipientRows(true)).toBe(3);
      expect(await matchRows()).toHaveLength(before);
    });

    test('GraphQL: a listed entity by its label is the userError SANCTIONS_MATCH, a clean one is created', async () => {
      const refused = await server.graphql(
        CREATE_RECIPIENT,
        { input: { label: 'Golden Crescent Trading & Shipping', details: bankDetails('5551') } },
        liveGraphql(),
      );
      expect(refused.body.errors).toBeUndefined();
      expect(refused.body.data.createPayoutRecipient).toMatchObject({
        recipient: null,
        userErrors: [{ field: null, code: 'SANCTIONS_MATCH', message: expect.any(String) }],
      });
      expect(JSON.stringify(refused.body)).not.toContain('15037');

      const created = await server.graphql(
        CREATE_RECIPIENT,
        { input: { label: 'Golden Harvest Foods', details: bankDetails('5552') } },
        liveGraphql(),
      );
      expect(created.body.data.createPayoutRecipient).toMatchObject({
        created: true,
        recipient: { label: 'Golden Harvest Foods', screenedAt: expect.any(String) },
        userErrors: [],
      });
      const rows = await matchRows();
      expect(rows[rows.length - 1]).toMatchObject({ list: 'ofac', entry_id: '15037', livemode: true });
    });

    test('test mode is still the sandbox: a listed name is created there, the word SANCTIONED refused', async () => {
      const created = await server.request('POST', RECIPIENTS, {
        headers: dashboard(merchant),
        body: { label: 'Consulting', details: bankDetails('6661', { accountName: 'Victor Boutski' }) },
      });
      expect(created.status).toBe(201);
      const refused = await server.request('POST', RECIPIENTS, {
        headers: dashboard(merchant),
        body: { label: 'SANCTIONED partner', details: bankDetails('6662') },
      });
      expect(refused.status).toBe(403);
    });

    test('a list loaded again is used from the next screening on (the index follows the loaded content)', async () => {
      const sdn = fs.readFileSync(path.join(FIXTURES, 'sdn.xml'), 'utf8');
      await lists.load(
        'ofac',
        Buffer.from(sdn.replace('<lastName>MARKOVSKY</lastName>', '<lastName>OSTROGRADSKY</lastName>')),
        'edited sdn.xml',
      );
      const now = await server.request('POST', RECIPIENTS, {
        headers: live(),
        body: { label: 'Supplier', details: bankDetails('7771', { accountName: 'Vadim Ostrogradsky' }) },
      });
      expect(now.status).toBe(403);
      const before = await server.request('POST', RECIPIENTS, {
        headers: live(),
        body: { label: 'Supplier', details: bankDetails('7772', { accountName: 'Vadim Markovsky' }) },
      });
      expect(before.status).toBe(201);
    });
  });
});
