import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RequestContext } from '../src/domain/shared/context';
import { SanctionsLists } from '../src/providers/screening/lists/store';
import { FakeYellowCard } from './support/fake-yellowcard';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { PAYOUTS, bankDetails, dashboard } from './support/payouts';
import { PIN, createSchedule, scheduleBody, setPin } from './support/schedules';

const RECIPIENTS = `${PAYOUTS}/recipients`;
const FIXTURES = path.join(__dirname, 'fixtures', 'sanctions');

const LISTS = `{ operatorSanctionsLists { list source publishedAt loadedAt entryCount sha256 } }`;
const MATCHES = `query($first: Int, $after: String) {
  operatorSanctionsMatches(first: $first, after: $after) {
    edges { cursor node { id createdAt businessId livemode screenedName list entryId entryName matchedName score outcome } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;
const NODE = 'query($id: ID!) { node(id: $id) { __typename id ... on SanctionsMatch { entryId outcome } } }';

/**
 * Issue 30: the sanctions lists' status and the recorded matches "shown to the operator"
 * (docs/graphql-api.md, "Operator API"; docs/live.md, Sanctions screening), over real HTTP: an
 * operator token reads which official lists are loaded and every live screening that matched
 * (when, the business, the name screened, the entry and score, what the match refused), newest
 * first; a merchant's credentials are FORBIDDEN there and never see any of it.
 */
describe("the operator's GraphQL fields: sanctions lists and matches", () => {
  let fake: FakeYellowCard;
  let server: TestServer;
  let merchant: TestMerchant;
  let liveKey: string;
  let token: string;

  const asOperator = () => ({ authorization: `Bearer ${token}` });
  const codesOf = (body: { errors?: any[] }) => (body.errors ?? []).map((error) => error.extensions?.code);
  const liveDashboard = () => ({ ...dashboard(merchant), 'x-service-mode': 'live' });
  const sha256Of = (file: string) =>
    crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(FIXTURES, file)))
      .digest('hex');
  const matchesOf = async (variables: Record<string, unknown> = {}) => {
    const response = await server.graphql(MATCHES, variables, asOperator());
    expect(response.body.errors).toBeUndefined();
    return response.body.data.operatorSanctionsMatches;
  };

  beforeAll(async () => {
    // A live payout rail (the fake Yellow Card), so that a live payout schedule reaches its screening.
    fake = await new FakeYellowCard().start();
    server = await startTestServer({ yellowcard: fake.settings });
    merchant = await server.signUp();
    liveKey = await server.liveKeyOf(merchant);
    const system = RequestContext.system(server.runtime.dataSource, 'test');
    token = (await server.runtime.core.operatorTokens.issue(system, { name: 'compliance desk' })).token;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  test('no list loaded: the operator reads an empty list of lists and no match', async () => {
    const lists = await server.graphql(LISTS, {}, asOperator());
    expect(lists.body).toEqual({ data: { operatorSanctionsLists: [] } });
    expect((await matchesOf()).edges).toEqual([]);
  });

  describe('with lists loaded and live screenings refused', () => {
    /** The matches as the screenings below record them, oldest first. */
    let refusedRecipient: string;

    beforeAll(async () => {
      const lists = new SanctionsLists(server.runtime.dataSource);
      for (const [list, file] of [
        ['ofac', 'sdn.xml'],
        ['eu', 'eu-consolidated.xml'],
      ] as const)
        await lists.load(list, fs.readFileSync(path.join(FIXTURES, file)), file);

      // A live dashboard create naming an OFAC alias: refused, recorded as a recipient refused.
      const refused = await server.request('POST', RECIPIENTS, {
        headers: liveDashboard(),
        body: { label: 'Consulting', details: bankDetails('2222', { accountName: 'Victor Boutski' }) },
      });
      expect(refused.status).toBe(403);
      refusedRecipient = 'Victor Boutski';

      // A live recipient created with the API key (never screened), then paid by a live schedule:
      // screening the schedule's recipients refuses it, recorded as a payout schedule refused.
      await setPin(server, merchant);
      const unscreened = await server.request('POST', RECIPIENTS, {
        headers: { 'x-api-key': liveKey },
        body: { label: 'Supplier', details: bankDetails('3333', { accountName: 'Kozlovskaya Tatiana' }) },
      });
      expect(unscreened.status).toBe(201);
      const schedule = await createSchedule(server, merchant, scheduleBody(unscreened.body.data.id, { pin: PIN }), {
        'x-api-key': liveKey,
      });
      expect({ status: schedule.status, code: schedule.body.error?.code }).toEqual({
        status: 403,
        code: 'SANCTIONS_MATCH',
      });
    });

    test('the loaded lists: each with its source, its file date, when it was loaded, its entry count and hash, in the order OFAC, UN, EU', async () => {
      const response = await server.graphql(LISTS, {}, asOperator());
      expect(response.body.errors).toBeUndefined();
      const rows: Array<{ list: string; published_at: Date | null; loaded_at: Date; entries: number }> =
        await server.runtime.dataSource.query(
          `SELECT list, published_at, loaded_at, entries FROM sanctions_lists ORDER BY list DESC`,
        );
      expect(rows.map((row) => row.list)).toEqual(['ofac', 'eu']);
      expect(response.body.data.operatorSanctionsLists).toEqual(
        rows.map((row, at) => ({
          list: row.list.toUpperCase(),
          source: ['sdn.xml', 'eu-consolidated.xml'][at],
          publishedAt: row.published_at?.toISOString() ?? null,
          loadedAt: row.loaded_at.toISOString(),
          entryCount: row.entries,
          sha256: sha256Of(['sdn.xml', 'eu-consolidated.xml'][at]),
        })),
      );
      expect(response.body.data.operatorSanctionsLists[0]).toMatchObject({
        publishedAt: expect.any(String),
        entryCount: 5,
      });
    });

    test('the matches: newest first, with when, the business, the name screened, the entry, its score and what was refused', async () => {
      const { edges } = await matchesOf();
      const recorded: Array<Record<string, any>> = await server.runtime.dataSource.query(
        `SELECT id, created_at, entry_id, entry_name, matched_name, score FROM sanctions_matches ORDER BY created_at DESC, id DESC`,
      );
      expect(edges.map((edge: any) => edge.node.id)).toEqual(recorded.map((row) => row.id));
      expect(edges).toHaveLength(2);
      const [schedule, recipient] = edges.map((edge: any) => edge.node);
      expect(recipient).toEqual({
        id: recorded[1].id,
        createdAt: recorded[1].created_at.toISOString(),
        businessId: merchant.businessId,
        livemode: true,
        screenedName: refusedRecipient,
        list: 'OFAC',
        entryId: '7001',
        entryName: 'Viktor Anatolyevich BOUTSKY',
        matchedName: 'Viktor BOUTSKI',
        score: recorded[1].score,
        outcome: 'RECIPIENT_REFUSED',
      });
      expect(recipient.score).toBeGreaterThanOrEqual(0.92);
      expect(schedule).toMatchObject({
        businessId: merchant.businessId,
        livemode: true,
        screenedName: 'Kozlovskaya Tatiana',
        list: 'EU',
        entryId: recorded[0].entry_id,
        entryName: recorded[0].entry_name,
        outcome: 'PAYOUT_SCHEDULE_REFUSED',
      });

      // A match recorded before Tessera kept what it refused reads as refused.
      const [legacy] = await server.runtime.dataSource.query(
        `INSERT INTO sanctions_matches (list, entry_id, entry_name, matched_name, screened_name, score, business_id, livemode)
         VALUES ('ofac', '36', 'AEROCARIBBEAN AIRLINES', 'AEROCARIBBEAN AIRLINES', 'Aerocaribbean Airlines', 1, NULL, true) RETURNING id`,
      );
      const newest = await matchesOf({ first: 1 });
      expect(newest.edges.map((edge: any) => edge.node)).toEqual([
        expect.objectContaining({ id: legacy.id, businessId: null, outcome: 'REFUSED', score: 1 }),
      ]);
      expect(newest.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      const next = await matchesOf({ first: 1, after: newest.pageInfo.endCursor });
      expect(next.edges.map((edge: any) => edge.node.id)).toEqual([schedule.id]);
      const rest = await matchesOf({ first: 5, after: next.pageInfo.endCursor });
      expect(rest.edges.map((edge: any) => edge.node.id)).toEqual([recipient.id]);
      expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

      // node(id:) answers a match to the operator only.
      const node = await server.graphql(NODE, { id: recipient.id }, asOperator());
      expect(node.body).toEqual({
        data: {
          node: { __typename: 'SanctionsMatch', id: recipient.id, entryId: '7001', outcome: 'RECIPIENT_REFUSED' },
        },
      });
      const merchantsNode = await server.graphql(
        NODE,
        { id: recipient.id },
        { authorization: `Bearer ${merchant.token}` },
      );
      expect(merchantsNode.body).toEqual({ data: { node: null } });
    });

    test("a merchant's dashboard token or API key (test or live) is FORBIDDEN on both fields; nothing of a match is answered", async () => {
      const merchantCredentials: Array<Record<string, string>> = [
        { authorization: `Bearer ${merchant.token}` },
        { authorization: `Bearer ${merchant.token}`, 'x-service-mode': 'live' },
        { 'x-api-key': merchant.apiKey },
        { 'x-api-key': liveKey },
      ];
      for (const headers of merchantCredentials) {
        for (const query of [LISTS, MATCHES]) {
          const response = await server.graphql(query, {}, headers);
          expect(response.status).toBe(200);
          expect(response.body.data ?? null).toBeNull();
          expect(codesOf(response.body)).toEqual(['FORBIDDEN']);
          expect(response.body.errors![0].message).toBe(
            "This is the platform operator's: it needs an operator token (tessera_op_…)",
          );
          for (const hidden of ['7001', 'BOUTSK', 'Boutski', 'sdn.xml'])
            expect(JSON.stringify(response.body)).not.toContain(hidden);
        }
      }
      expect(codesOf((await server.graphql(LISTS, {})).body)).toEqual(['UNAUTHENTICATED']);
      // And the operator's token reaches nothing of the merchant's.
      const merchants = await server.graphql(`{ operatorSanctionsLists { list } wallets { id } }`, {}, asOperator());
      expect(codesOf(merchants.body)).toContain('FORBIDDEN');
      expect(JSON.stringify(merchants.body.data ?? {})).not.toContain('"wallets":[');
    });

    test('bad input is BAD_USER_INPUT with the field, an unknown or malformed match id null on node(id:); never a 500', async () => {
      const fieldErrors = async (variables: Record<string, unknown>) => {
        const response = await server.graphql(MATCHES, variables, asOperator());
        expect(response.status).toBeLessThan(500);
        expect(codesOf(response.body)).toEqual(['BAD_USER_INPUT']);
        return response.body.errors![0].extensions.errors;
      };
      expect(await fieldErrors({ first: 0 })).toEqual({ first: [expect.stringContaining('between 1 and 100')] });
      expect(await fieldErrors({ first: 101 })).toEqual({ first: [expect.stringContaining('between 1 and 100')] });
      expect(await fieldErrors({ after: 'not-a-cursor' })).toEqual({
        after: ['is not a valid cursor for these filters'],
      });
      for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
        const response = await server.graphql(NODE, { id }, asOperator());
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ data: { node: null } });
      }
    });
  });
});
