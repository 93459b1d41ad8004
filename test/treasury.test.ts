import { LedgerService } from '../src/domain/ledger/ledger.service';
import { TestMerchant, TestServer, startDeliveringServer } from './support/harness';
import { eventsOf, walletBalance } from './support/payments';
import {
  TREASURY,
  USERS,
  activeEndUser,
  apiKey,
  countOf,
  createEndUser,
  createWallet,
  deposit,
  ledgerBalanceOf,
  treasuryPartner,
} from './support/treasury';

const END_USER_FIELDS = [
  'id',
  'partnerId',
  'externalId',
  'email',
  'status',
  'createdAt',
  'updatedAt',
  'name',
  'phone',
  'metadata',
];
const KYC_FIELDS = ['id', 'partnerEndUserId', 'status', 'updatedAt', 'level', 'rejectionReasons', 'kycLinkUrl'];
const WALLET_FIELDS = ['id', 'partnerEndUserId', 'currency', 'balance', 'status', 'createdAt'];
const DEPOSIT_INSTRUCTION_FIELDS = [
  'walletId',
  'currency',
  'accountNumber',
  'routingNumber',
  'iban',
  'bankName',
  'accountType',
  'depositInstructions',
  'cryptoDepositAddress',
  'cryptoDepositChain',
  'walletAddress',
  'chain',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A valid IBAN passes the ISO 13616 mod-97 check. */
const ibanValid = (iban: string) => {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (letter) =>
    String(letter.charCodeAt(0) - 55),
  );
  return BigInt(rearranged) % 97n === 1n;
};

/** Treasury over REST (design section 10; interface document: Treasury end-user, Treasury KYC record, Wallet deposit instructions). */
describe('Treasury: end-users, KYC, wallets and deposits', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer();
  });
  afterAll(async () => server.close());

  const db = () => server.runtime.dataSource;
  const liveKeys = new Map<string, Promise<string>>();
  /** The partner's live API key (issued once per business). */
  const liveHeaders = async (partner: TestMerchant) => {
    if (!liveKeys.has(partner.businessId)) liveKeys.set(partner.businessId, server.liveKeyOf(partner));
    return { 'x-api-key': await liveKeys.get(partner.businessId)! };
  };
  const expectFieldError = (response: { status: number; body: any }, field: string) => {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 400 } });
    expect(Object.keys(response.body.error.errors)).toContain(field);
  };

  describe('end-users', () => {
    test('an end-user is created as documented: 201, exactly the documented fields, status pending_kyc, and treasury.end_user.created', async () => {
      const partner = await treasuryPartner(server);
      const response = await server.request('POST', USERS, {
        headers: apiKey(partner),
        body: {
          externalId: 'cust-0001',
          email: 'Amara@Example.com',
          name: 'Amara Obi',
          phone: '+2348012345678',
          metadata: { tier: 'gold' },
        },
      });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body)).toEqual(['success', 'data']);
      const user = response.body.data;
      expect(Object.keys(user).sort()).toEqual([...END_USER_FIELDS].sort());
      expect(user).toEqual({
        id: expect.any(String),
        partnerId: partner.businessId,
        externalId: 'cust-0001',
        email: 'amara@example.com',
        status: 'pending_kyc',
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        name: 'Amara Obi',
        phone: '+2348012345678',
        metadata: { tier: 'gold' },
      });
      const read = await server.request('GET', `${USERS}/${user.id}`, { headers: apiKey(partner) });
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(user);
      const [event] = await eventsOf(server, partner.businessId, 'treasury.end_user.created');
      expect(event.data).toEqual({ livemode: false, object: user });
    });

    test('optional fields absent read as null; the list is { items, total, skip, take }, newest first, filterable by externalId and status', async () => {
      const partner = await treasuryPartner(server);
      const first = await createEndUser(server, partner, { externalId: 'list-a', name: undefined });
      const second = await createEndUser(server, partner, { externalId: 'list-b' });
      const read = await server.request('GET', `${USERS}/${first.id}`, { headers: apiKey(partner) });
      expect(read.body.data).toMatchObject({ name: null, phone: null, metadata: null });
      const list = await server.request('GET', `${USERS}?take=1`, { headers: apiKey(partner) });
      expect(list.status).toBe(200);
      expect(list.body.data).toMatchObject({ total: 2, skip: 0, take: 1 });
      expect(list.body.data.items.map((item: any) => item.id)).toEqual([second.id]);
      const filtered = await server.request('GET', `${USERS}?externalId=list-a`, { headers: apiKey(partner) });
      expect(filtered.body.data.items.map((item: any) => item.id)).toEqual([first.id]);
      const active = await server.request('GET', `${USERS}?status=active`, { headers: apiKey(partner) });
      expect(active.body.data.total).toBe(0);
    });

    test('externalId is unique per partner and mode: the same one twice is 409 (also under 10 concurrent creates), another partner or live mode may use it', async () => {
      const partner = await treasuryPartner(server);
      await createEndUser(server, partner, { externalId: 'dup-1' });
      const again = await server.request('POST', USERS, {
        headers: apiKey(partner),
        body: { externalId: 'dup-1', email: 'x@example.com' },
      });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
      const racing = await Promise.all(
        Array.from({ length: 10 }, () =>
          server.request('POST', USERS, {
            headers: apiKey(partner),
            body: { externalId: 'dup-2', email: 'y@example.com' },
          }),
        ),
      );
      expect(racing.map((response) => response.status).sort()).toEqual([201, ...Array(9).fill(409)]);
      expect(
        Number(
          (
            await db().query(
              `SELECT count(*) AS n FROM treasury_end_users WHERE business_id = $1 AND external_id = 'dup-2'`,
              [partner.businessId],
            )
          )[0].n,
        ),
      ).toBe(1);
      const other = await treasuryPartner(server);
      expect(
        (
          await server.request('POST', USERS, {
            headers: apiKey(other),
            body: { externalId: 'dup-1', email: 'z@example.com' },
          })
        ).status,
      ).toBe(201);
      const live = await server.request('POST', USERS, {
        headers: await liveHeaders(partner),
        body: { externalId: 'dup-1', email: 'z@example.com' },
      });
      expect(live.status).toBe(201);
      expect(live.body.data.id).not.toBe(again.body.data?.id);
    });

    test('bad end-user input is a 400 VALIDATION_ERROR naming each field, and writes nothing', async () => {
      const partner = await treasuryPartner(server);
      const missing = await server.request('POST', USERS, { headers: apiKey(partner), body: { name: 'No Email' } });
      expectFieldError(missing, 'externalId');
      expect(Object.keys(missing.body.error.errors)).toContain('email');
      expectFieldError(
        await server.request('POST', USERS, {
          headers: apiKey(partner),
          body: { externalId: 'e1', email: 'not-an-email' },
        }),
        'email',
      );
      expectFieldError(
        await server.request('POST', USERS, {
          headers: apiKey(partner),
          body: { externalId: 'e1', email: 'a@example.com', metadata: 'x' },
        }),
        'metadata',
      );
      expect(await countOf(server, 'treasury_end_users', partner.businessId)).toBe(0);
      expect(await eventsOf(server, partner.businessId, 'treasury.end_user.created')).toHaveLength(0);
    });

    test('a business without the treasury product gets 403 on every treasury route, before its input is read', async () => {
      const merchant = await server.signUp();
      const partner = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      const refused = [
        await server.request('POST', USERS, { headers: apiKey(merchant), body: {} }),
        await server.request('GET', USERS, { headers: apiKey(merchant) }),
        await server.request('GET', `${USERS}/${user.id}`, { headers: apiKey(merchant) }),
        await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(merchant), body: {} }),
        await server.request('POST', `${USERS}/${user.id}/wallets`, { headers: apiKey(merchant), body: {} }),
        await server.request('POST', `${TREASURY}/payouts`, { headers: apiKey(merchant), body: {} }),
        await server.request('GET', `${TREASURY}/payouts`, { headers: apiKey(merchant) }),
      ];
      for (const response of refused) expect(response.body.error).toMatchObject({ code: 'FORBIDDEN', statusCode: 403 });
      expect(await countOf(server, 'treasury_end_users', merchant.businessId)).toBe(0);
    });

    test("another partner's end-user, an unknown id and a test end-user read with live credentials are 404", async () => {
      const partner = await treasuryPartner(server);
      const other = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      for (const response of [
        await server.request('GET', `${USERS}/${user.id}`, { headers: apiKey(other) }),
        await server.request('GET', `${USERS}/not-an-id`, { headers: apiKey(partner) }),
        await server.request('GET', `${USERS}/${user.id}`, { headers: await liveHeaders(partner) }),
        await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(other), body: {} }),
      ])
        expect(response.body.error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
      const liveList = await server.request('GET', USERS, { headers: await liveHeaders(partner) });
      expect(liveList.body.data.total).toBe(0);
    });

    test("another partner's end-user is 404 on KYC reads, sandbox decisions and wallet creation, and nothing of it changes", async () => {
      const partner = await treasuryPartner(server);
      const other = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
      for (const response of [
        await server.request('GET', `${USERS}/${user.id}/kyc`, { headers: apiKey(other) }),
        await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-approve`, { headers: apiKey(other) }),
        await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-reject`, {
          headers: apiKey(other),
          body: { reasons: ['x'] },
        }),
        await server.request('POST', `${USERS}/${user.id}/wallets`, {
          headers: apiKey(other),
          body: { currency: 'usd' },
        }),
      ])
        expect(response.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', statusCode: 404 } });
      const kyc = await server.request('GET', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner) });
      expect(kyc.body.data.status).toBe('PENDING');
      expect((await server.request('GET', `${USERS}/${user.id}`, { headers: apiKey(partner) })).body.data.status).toBe(
        'pending_kyc',
      );
      expect(await countOf(server, 'treasury_wallets', other.businessId)).toBe(0);
      expect(await countOf(server, 'treasury_wallets', partner.businessId)).toBe(0);
    });
  });

  describe('KYC', () => {
    test('starting KYC answers the documented record: 201, PENDING, level, no reasons, a kycLinkUrl to a page Tessera serves; GET answers the same; starting again answers the pending check (200)', async () => {
      const partner = await treasuryPartner(server);
      const user = await createEndUser(server, partner, { name: 'Kofi Mensah', email: 'kofi@example.com' });
      const started = await server.request('POST', `${USERS}/${user.id}/kyc`, {
        headers: apiKey(partner),
        body: { level: 'full' },
      });
      expect(started.status).toBe(201);
      const check = started.body.data;
      expect(Object.keys(check).sort()).toEqual([...KYC_FIELDS].sort());
      expect(check).toEqual({
        id: expect.any(String),
        partnerEndUserId: user.id,
        status: 'PENDING',
        updatedAt: expect.stringMatching(ISO),
        level: 'full',
        rejectionReasons: [],
        kycLinkUrl: expect.stringMatching(/\/kyc\/kyc_test_[A-Za-z0-9_-]{32}$/),
      });
      expect((await server.request('GET', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner) })).body.data).toEqual(
        check,
      );
      const again = await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner) });
      expect(again.status).toBe(200);
      expect(again.body.data.id).toBe(check.id);

      const page = await fetch(`${server.baseUrl}${new URL(check.kycLinkUrl).pathname}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const html = await page.text();
      expect(html).toContain('Kofi Mensah');
      expect(html).toContain('data-status="PENDING"');
      expect(html).toContain('id="approve-button"');
      expect(html).toContain('id="reject-button"');
    });

    test('the default level is basic; GET before any check is 404; a bad level is 400', async () => {
      const partner = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      expect((await server.request('GET', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner) })).status).toBe(404);
      expectFieldError(
        await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: { level: 'gold' } }),
        'level',
      );
      expect(await countOf(server, 'treasury_kyc_checks', partner.businessId)).toBe(0);
      const started = await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
      expect(started.body.data.level).toBe('basic');
    });

    test('sandbox-approve approves a PENDING check: the end-user becomes active and treasury.kyc.approved is recorded; approving again is 409', async () => {
      const partner = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
      const approved = await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-approve`, {
        headers: apiKey(partner),
      });
      expect(approved.status).toBe(200);
      expect(approved.body.data).toMatchObject({ status: 'APPROVED', rejectionReasons: [] });
      expect((await server.request('GET', `${USERS}/${user.id}`, { headers: apiKey(partner) })).body.data.status).toBe(
        'active',
      );
      const [event] = await eventsOf(server, partner.businessId, 'treasury.kyc.approved');
      expect(event.data).toEqual({ livemode: false, object: approved.body.data });
      const twice = await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-approve`, {
        headers: apiKey(partner),
      });
      expect(twice.body.error).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
      expect(
        (
          await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-reject`, {
            headers: apiKey(partner),
            body: { reasons: ['late'] },
          })
        ).status,
      ).toBe(409);
      expect(
        (await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} })).status,
      ).toBe(409);
      expect(await eventsOf(server, partner.businessId, 'treasury.kyc.approved')).toHaveLength(1);
    });

    test('sandbox-reject rejects a PENDING check with its reasons: the end-user becomes rejected, treasury.kyc.rejected; a new check may start after', async () => {
      const partner = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
      const rejected = await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-reject`, {
        headers: apiKey(partner),
        body: { reasons: ['document_expired', 'selfie_mismatch'] },
      });
      expect(rejected.status).toBe(200);
      expect(rejected.body.data).toMatchObject({
        status: 'REJECTED',
        rejectionReasons: ['document_expired', 'selfie_mismatch'],
        partnerEndUserId: user.id,
      });
      expect((await server.request('GET', `${USERS}/${user.id}`, { headers: apiKey(partner) })).body.data.status).toBe(
        'rejected',
      );
      const [event] = await eventsOf(server, partner.businessId, 'treasury.kyc.rejected');
      expect(event.data).toEqual({ livemode: false, object: rejected.body.data });
      expect(
        (
          await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-reject`, {
            headers: apiKey(partner),
            body: { reasons: ['again'] },
          })
        ).status,
      ).toBe(409);
      expect(
        (await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-approve`, { headers: apiKey(partner) })).status,
      ).toBe(409);
      const restarted = await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
      expect(restarted.status).toBe(201);
      expect(restarted.body.data.id).not.toBe(rejected.body.data.id);
      expect((await server.request('GET', `${USERS}/${user.id}`, { headers: apiKey(partner) })).body.data.status).toBe(
        'pending_kyc',
      );
    });

    test('sandbox-reject needs reasons (400, nothing changes); deciding with no check started is 404', async () => {
      const partner = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      expect(
        (await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-approve`, { headers: apiKey(partner) })).status,
      ).toBe(404);
      await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
      expectFieldError(
        await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-reject`, { headers: apiKey(partner), body: {} }),
        'reasons',
      );
      expectFieldError(
        await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-reject`, {
          headers: apiKey(partner),
          body: { reasons: [] },
        }),
        'reasons',
      );
      expectFieldError(
        await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-reject`, {
          headers: apiKey(partner),
          body: { reasons: [''] },
        }),
        'reasons.0',
      );
      expect(
        (await server.request('GET', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner) })).body.data.status,
      ).toBe('PENDING');
    });

    test('sandbox KYC operations with live credentials are 403 and write nothing; live KYC has no provider (422)', async () => {
      const partner = await treasuryPartner(server);
      const live = await liveHeaders(partner);
      const liveUser = (
        await server.request('POST', USERS, { headers: live, body: { externalId: 'live-1', email: 'l@example.com' } })
      ).body.data;
      const testUser = await createEndUser(server, partner);
      await server.request('POST', `${USERS}/${testUser.id}/kyc`, { headers: apiKey(partner), body: {} });
      for (const id of [liveUser.id, testUser.id]) {
        const approve = await server.request('POST', `${USERS}/${id}/kyc/sandbox-approve`, { headers: live });
        expect(approve.body.error).toMatchObject({ code: 'SANDBOX_ONLY', statusCode: 403 });
        const reject = await server.request('POST', `${USERS}/${id}/kyc/sandbox-reject`, {
          headers: live,
          body: { reasons: ['x'] },
        });
        expect(reject.body.error).toMatchObject({ code: 'SANDBOX_ONLY', statusCode: 403 });
      }
      const liveStart = await server.request('POST', `${USERS}/${liveUser.id}/kyc`, { headers: live, body: {} });
      expect(liveStart.body.error).toMatchObject({ code: 'UNPROCESSABLE', statusCode: 422 });
      expect(liveStart.body.error.message).toContain('No KYC provider is configured for live mode');
      expect(
        (await server.request('GET', `${USERS}/${testUser.id}/kyc`, { headers: apiKey(partner) })).body.data.status,
      ).toBe('PENDING');
      expect(
        Number(
          (
            await db().query(`SELECT count(*) AS n FROM treasury_kyc_checks WHERE business_id = $1 AND livemode`, [
              partner.businessId,
            ])
          )[0].n,
        ),
      ).toBe(0);
    });

    test('the hosted KYC page approves a check (the API then reads APPROVED) and rejects another with the reasons typed; unknown tokens are 404', async () => {
      const partner = await treasuryPartner(server);
      const first = await createEndUser(server, partner);
      const second = await createEndUser(server, partner);
      const linkOf = async (id: string) =>
        new URL(
          (await server.request('POST', `${USERS}/${id}/kyc`, { headers: apiKey(partner), body: {} })).body.data
            .kycLinkUrl,
        ).pathname;
      const form = (body: string) => ({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });

      const approvedPage = await fetch(`${server.baseUrl}${await linkOf(first.id)}/approve`, form(''));
      expect(approvedPage.status).toBe(200);
      expect(await approvedPage.text()).toContain('data-status="APPROVED"');
      expect(
        (await server.request('GET', `${USERS}/${first.id}/kyc`, { headers: apiKey(partner) })).body.data.status,
      ).toBe('APPROVED');
      expect((await server.request('GET', `${USERS}/${first.id}`, { headers: apiKey(partner) })).body.data.status).toBe(
        'active',
      );

      const secondLink = await linkOf(second.id);
      const rejectedPage = await fetch(
        `${server.baseUrl}${secondLink}/reject`,
        form(`reasons=${encodeURIComponent('address_mismatch\nblurry_photo')}`),
      );
      expect(rejectedPage.status).toBe(200);
      expect(await rejectedPage.text()).toContain('data-status="REJECTED"');
      expect(
        (await server.request('GET', `${USERS}/${second.id}/kyc`, { headers: apiKey(partner) })).body.data,
      ).toMatchObject({ status: 'REJECTED', rejectionReasons: ['address_mismatch', 'blurry_photo'] });
      const decidedAgain = await fetch(`${server.baseUrl}${secondLink}/approve`, form(''));
      expect(decidedAgain.status).toBe(409);
      expect(await eventsOf(server, partner.businessId, 'treasury.kyc.approved')).toHaveLength(1);

      expect((await fetch(`${server.baseUrl}/kyc/kyc_test_${'x'.repeat(32)}`)).status).toBe(404);
      expect((await fetch(`${server.baseUrl}/kyc/nonsense`)).status).toBe(404);
    });
  });

  describe('wallets and deposits', () => {
    test("concurrent starts of one end-user's KYC answer one check (one 201, the rest 200 with it); concurrent wallets of one currency answer one 201, the rest 409", async () => {
      const partner = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      const starts = await Promise.all(
        Array.from({ length: 8 }, () =>
          server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} }),
        ),
      );
      expect(starts.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(starts.map((response) => response.body.data.id)).size).toBe(1);
      expect(await countOf(server, 'treasury_kyc_checks', partner.businessId)).toBe(1);
      await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-approve`, { headers: apiKey(partner) });
      const wallets = await Promise.all(
        Array.from({ length: 8 }, () =>
          server.request('POST', `${USERS}/${user.id}/wallets`, {
            headers: apiKey(partner),
            body: { currency: 'eur' },
          }),
        ),
      );
      expect(wallets.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      for (const refused of wallets.filter((response) => response.status === 409))
        expect(refused.body.error.code).toBe('CONFLICT');
      expect(await countOf(server, 'treasury_wallets', partner.businessId)).toBe(1);
    });

    test('a wallet before KYC approval is 422 KYC_REQUIRED (pending or rejected) and writes nothing', async () => {
      const partner = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      const before = await server.request('POST', `${USERS}/${user.id}/wallets`, {
        headers: apiKey(partner),
        body: { currency: 'usd' },
      });
      expect(before.body.error).toMatchObject({ code: 'KYC_REQUIRED', statusCode: 422 });
      await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
      await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-reject`, {
        headers: apiKey(partner),
        body: { reasons: ['fraud_suspected'] },
      });
      const rejected = await server.request('POST', `${USERS}/${user.id}/wallets`, {
        headers: apiKey(partner),
        body: { currency: 'usd' },
      });
      expect(rejected.body.error).toMatchObject({ code: 'KYC_REQUIRED', statusCode: 422 });
      expect(await countOf(server, 'treasury_wallets', partner.businessId)).toBe(0);
      expect(
        Number(
          (
            await db().query(
              `SELECT count(*) AS n FROM ledger_accounts WHERE business_id = $1 AND kind = 'end_user_wallet'`,
              [partner.businessId],
            )
          )[0].n,
        ),
      ).toBe(0);
    });

    test('a wallet is created as documented (201, balance "0.00" from the ledger), is its own END_USER_WALLET account, one per currency (409), with treasury.wallet.created', async () => {
      const partner = await treasuryPartner(server);
      const user = await activeEndUser(server, partner);
      const response = await server.request('POST', `${USERS}/${user.id}/wallets`, {
        headers: apiKey(partner),
        body: { currency: 'usd' },
      });
      expect(response.status).toBe(201);
      const wallet = response.body.data;
      expect(Object.keys(wallet).sort()).toEqual([...WALLET_FIELDS].sort());
      expect(wallet).toEqual({
        id: expect.any(String),
        partnerEndUserId: user.id,
        currency: 'usd',
        balance: '0.00',
        status: 'active',
        createdAt: expect.stringMatching(ISO),
      });
      const [account] = await db().query(
        `SELECT a.kind, a.owner_ref, a.business_id, a.allow_negative FROM treasury_wallets w JOIN ledger_accounts a ON a.id = w.ledger_account_id WHERE w.id = $1`,
        [wallet.id],
      );
      expect(account).toEqual({
        kind: 'end_user_wallet',
        owner_ref: user.id,
        business_id: partner.businessId,
        allow_negative: false,
      });
      const [event] = await eventsOf(server, partner.businessId, 'treasury.wallet.created');
      expect(event.data).toEqual({ livemode: false, object: wallet });
      const twice = await server.request('POST', `${USERS}/${user.id}/wallets`, {
        headers: apiKey(partner),
        body: { currency: 'USD' },
      });
      expect(twice.body.error).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
      const eur = await createWallet(server, partner, user.id, 'eur');
      const list = await server.request('GET', `${USERS}/${user.id}/wallets`, { headers: apiKey(partner) });
      expect(list.body.data).toMatchObject({ total: 2, skip: 0, take: 20 });
      expect(list.body.data.items.map((item: any) => item.id).sort()).toEqual([wallet.id, eur.id].sort());
      expect(
        (await server.request('GET', `${USERS}/${user.id}/wallets/${wallet.id}`, { headers: apiKey(partner) })).body
          .data,
      ).toEqual(wallet);
      expectFieldError(
        await server.request('POST', `${USERS}/${user.id}/wallets`, {
          headers: apiKey(partner),
          body: { currency: 'xof' },
        }),
        'currency',
      );
      expectFieldError(
        await server.request('POST', `${USERS}/${user.id}/wallets`, { headers: apiKey(partner), body: {} }),
        'currency',
      );
      expect(await countOf(server, 'treasury_wallets', partner.businessId)).toBe(2);
    });

    test('deposit instructions are exactly the documented fields, strings or null: ACH account + routing for USD, IBAN for EUR, a chain address for USDC', async () => {
      const partner = await treasuryPartner(server);
      const user = await activeEndUser(server, partner);
      const instructionsOf = async (currency: string) => {
        const wallet = await createWallet(server, partner, user.id, currency);
        const response = await server.request('GET', `${USERS}/${user.id}/wallets/${wallet.id}/deposit_instructions`, {
          headers: apiKey(partner),
        });
        expect(response.status).toBe(200);
        const data = response.body.data;
        expect(Object.keys(data).sort()).toEqual([...DEPOSIT_INSTRUCTION_FIELDS].sort());
        for (const field of DEPOSIT_INSTRUCTION_FIELDS.filter((name) => name !== 'depositInstructions')) {
          expect(data[field] === null || typeof data[field] === 'string').toBe(true);
        }
        expect(typeof data.depositInstructions).toBe('object');
        expect(data.walletId).toBe(wallet.id);
        return data;
      };
      const usd = await instructionsOf('usd');
      expect(usd).toMatchObject({
        currency: 'usd',
        accountNumber: expect.stringMatching(/^\d{12}$/),
        routingNumber: expect.stringMatching(/^\d{9}$/),
        iban: null,
        bankName: expect.any(String),
        accountType: 'checking',
        cryptoDepositAddress: null,
        cryptoDepositChain: null,
        walletAddress: null,
        chain: null,
      });
      expect(usd.depositInstructions).toMatchObject({
        method: 'bank_transfer',
        scheme: 'ach',
        beneficiaryName: 'Amara Obi',
        reference: expect.stringMatching(/^TSR-\d{10}$/),
      });
      const eur = await instructionsOf('eur');
      expect(eur).toMatchObject({
        currency: 'eur',
        accountNumber: null,
        routingNumber: null,
        iban: expect.stringMatching(/^DE\d{20}$/),
        bankName: expect.any(String),
        cryptoDepositAddress: null,
      });
      expect(ibanValid(eur.iban)).toBe(true);
      const usdc = await instructionsOf('usdc');
      expect(usdc).toMatchObject({
        currency: 'usdc',
        accountNumber: null,
        routingNumber: null,
        iban: null,
        bankName: null,
        accountType: null,
        cryptoDepositAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/),
        cryptoDepositChain: 'ethereum',
        chain: 'ethereum',
      });
      expect(usdc.walletAddress).toBe(usdc.cryptoDepositAddress);
      const again = await server.request('GET', `${USERS}/${user.id}/wallets/${usd.walletId}/deposit_instructions`, {
        headers: apiKey(partner),
      });
      expect(again.body.data).toEqual(usd);
    });

    test("a sandbox deposit credits the wallet through the ledger (balanced, from sandbox funding), never the partner's merchant wallet, with treasury.deposit.received", async () => {
      const partner = await treasuryPartner(server);
      const user = await activeEndUser(server, partner);
      const wallet = await createWallet(server, partner, user.id, 'usd');
      const merchantBefore = await walletBalance(server, partner.businessId);
      const response = await server.request(
        'POST',
        `${TREASURY}/sandbox/users/${user.id}/wallets/${wallet.id}/deposit`,
        { headers: apiKey(partner), body: { amount: '150.25' } },
      );
      expect(response.status).toBe(201);
      expect(response.body.data).toEqual({
        id: expect.any(String),
        walletId: wallet.id,
        partnerEndUserId: user.id,
        amount: '150.25',
        currency: 'usd',
        balance: '150.25',
        createdAt: expect.stringMatching(ISO),
      });
      await deposit(server, partner, user.id, wallet.id, '0.75');
      expect(
        (await server.request('GET', `${USERS}/${user.id}/wallets/${wallet.id}`, { headers: apiKey(partner) })).body
          .data.balance,
      ).toBe('151.00');
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(15100n);
      expect(await walletBalance(server, partner.businessId)).toBe(merchantBefore);
      const lines = await db().query(
        `SELECT a.kind, e.amount::text AS amount FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE e.transaction_id = $1 ORDER BY a.kind`,
        [response.body.data.id],
      );
      expect(lines).toEqual([
        { kind: 'end_user_wallet', amount: '15025' },
        { kind: 'sandbox_funding', amount: '-15025' },
      ]);
      const events = await eventsOf(server, partner.businessId, 'treasury.deposit.received');
      expect(events).toHaveLength(2);
      expect(events.map((event) => event.data)).toContainEqual({ livemode: false, object: response.body.data });
      expect((await LedgerService.check(db())).balanced).toBe(true);
    });

    test('bad deposits are 400 and write nothing: 1.2.3, -5, more decimals than the currency has, zero, a number', async () => {
      const partner = await treasuryPartner(server);
      const user = await activeEndUser(server, partner);
      const wallet = await createWallet(server, partner, user.id, 'usd');
      const path = `${TREASURY}/sandbox/users/${user.id}/wallets/${wallet.id}/deposit`;
      for (const amount of ['1.2.3', '-5', '1.234', '0', 5, '', 'ten']) {
        expectFieldError(await server.request('POST', path, { headers: apiKey(partner), body: { amount } }), 'amount');
      }
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(0n);
      expect(await eventsOf(server, partner.businessId, 'treasury.deposit.received')).toHaveLength(0);
      expect(
        Number(
          (await db().query(`SELECT count(*) AS n FROM journal_transactions WHERE reference_id = $1`, [wallet.id]))[0]
            .n,
        ),
      ).toBe(0);
    });

    test('a wallet of another end-user, another partner or the other mode is 404 everywhere; sandbox deposits with live credentials are 403', async () => {
      const partner = await treasuryPartner(server);
      const user = await activeEndUser(server, partner);
      const otherUser = await activeEndUser(server, partner);
      const wallet = await createWallet(server, partner, user.id, 'usd');
      const otherPartner = await treasuryPartner(server);
      const wrongOwner = [
        await server.request('GET', `${USERS}/${otherUser.id}/wallets/${wallet.id}`, { headers: apiKey(partner) }),
        await server.request('GET', `${USERS}/${otherUser.id}/wallets/${wallet.id}/deposit_instructions`, {
          headers: apiKey(partner),
        }),
        await server.request('POST', `${TREASURY}/sandbox/users/${otherUser.id}/wallets/${wallet.id}/deposit`, {
          headers: apiKey(partner),
          body: { amount: '5.00' },
        }),
        await server.request('GET', `${USERS}/${user.id}/wallets/${wallet.id}`, { headers: apiKey(otherPartner) }),
        await server.request('GET', `${USERS}/${user.id}/wallets/${wallet.id}/deposit_instructions`, {
          headers: apiKey(otherPartner),
        }),
        await server.request('GET', `${USERS}/${user.id}/wallets`, { headers: apiKey(otherPartner) }),
        await server.request('GET', `${USERS}/${user.id}/wallets/${wallet.id}`, {
          headers: await liveHeaders(partner),
        }),
      ];
      for (const response of wrongOwner)
        expect(response.body.error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
      const live = await server.request('POST', `${TREASURY}/sandbox/users/${user.id}/wallets/${wallet.id}/deposit`, {
        headers: await liveHeaders(partner),
        body: { amount: '5.00' },
      });
      expect(live.body.error).toMatchObject({ code: 'SANDBOX_ONLY', statusCode: 403 });
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(0n);
    });
  });
});
