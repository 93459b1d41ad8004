import crypto from 'node:crypto';
import { Pool } from 'pg';
import { spawnTs } from '../support/process';
import { CARDS, card } from '../support/payments';
import { Answer, APIS, Fleet, ProcessName, isAnswer } from './support/fleet';
import { Deployment, deploy, expectNoViolations } from './support/deployment';
import { Violations, recordFigures } from './support/figures';
import { Inflows, LEDGER_CLASSES, checkLedger } from './support/ledger-checks';
import { Tally, major, runPool, seedOf, seededRandom } from './support/load';
import { Merchant, endUserWallet, keyed, recipientOf, signUpMerchant } from './support/merchants';
import {
  OBJECT_CLASSES,
  checkEvents,
  checkNothingStuck,
  checkObjectsAgainstLedger,
  checkRepeatedPostings,
} from './support/object-checks';
import { scaleOf } from './support/scale';

/**
 * The bank test of issue 26: many businesses and wallets; charges, refunds, payouts, cancels,
 * treasury payouts and collections spread over two API processes (a worker beside them) for a
 * fixed number of operations; the ledger checked in snapshots while they run and once more at rest;
 * `tessera ledger:check` clean at the end.
 */
const scale = scaleOf();
const seed = seedOf();
const random = seededRandom(seed);
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

const CLASSES = [
  'answer 5xx or lost',
  'acknowledged object missing',
  ...LEDGER_CLASSES,
  ...OBJECT_CLASSES,
  'ledger:check not clean',
];

interface Shop {
  merchant: Merchant;
  recipients: { settles: string; fails: string; manual: string };
  payments: Array<{ id: string; amount: number; refunded: number }>;
  manualPayouts: string[];
}
interface Partner {
  partner: Merchant;
  wallets: Array<{ userId: string; walletId: string }>;
  pendingPayouts: string[];
}

describe(`the bank test (RELIABILITY_SCALE=${scale.name}: ${scale.bank.operations} operations over two API processes)`, () => {
  let deployment: Deployment;
  let fleet: Fleet;
  let db: Pool;
  const violations = new Violations(CLASSES);
  const inflows = new Inflows();
  const answers = new Tally();
  const acknowledged: Array<{ table: string; id: string }> = [];
  let operations = 0;
  let snapshots = 0;
  const shops: Shop[] = [];
  const partners: Partner[] = [];

  beforeAll(async () => {
    deployment = await deploy();
    ({ fleet, db } = deployment);
  });
  afterAll(async () => {
    recordFigures({
      file: 'bank',
      scale: scale.name,
      operations,
      snapshots,
      kills: fleet?.kills ?? 0,
      retries: 0,
      violations: violations.byClass,
      counts: { seed, ...answers.counts },
      examples: violations.examples,
    });
    await deployment?.close();
  });

  /** One keyed request of the load over `api`; every answer is tallied, a 5xx or a lost connection is a violation. */
  async function send(
    api: ProcessName,
    label: string,
    method: string,
    path: string,
    merchant: Merchant,
    body?: unknown,
  ): Promise<Answer | null> {
    operations += 1;
    const outcome = await fleet.request(api, method, path, { headers: keyed(merchant, crypto.randomUUID()), body });
    if (!isAnswer(outcome) || outcome.status >= 500) {
      violations.add(
        'answer 5xx or lost',
        `${label} on ${api}: ${JSON.stringify(isAnswer(outcome) ? outcome.body : outcome)}`,
      );
      return null;
    }
    answers.add(`${label} ${outcome.status}`);
    return outcome;
  }
  const created = (answer: Answer | null, table: string) => {
    if (answer && (answer.status === 200 || answer.status === 201)) {
      acknowledged.push({ table, id: answer.body.data.id });
      return answer.body.data;
    }
    return null;
  };

  const fund = (api: ProcessName, shop: Shop, minor: number) =>
    inflows.track(
      'USD',
      BigInt(minor),
      async () =>
        (
          await send(api, 'fund', 'POST', '/api/v1/business/sandbox/wallets/fund', shop.merchant, {
            amount: major(minor),
            currency: 'usd',
          })
        )?.status === 201,
    );
  const deposit = (api: ProcessName, partner: Partner, wallet: { userId: string; walletId: string }, minor: number) =>
    inflows.track(
      'USD',
      BigInt(minor),
      async () =>
        (
          await send(
            api,
            'deposit',
            'POST',
            `/api/v1/treasury/sandbox/users/${wallet.userId}/wallets/${wallet.walletId}/deposit`,
            partner.partner,
            { amount: major(minor) },
          )
        )?.status === 201,
    );

  /** The operations of the load, by weight. */
  const OPERATIONS: Array<[number, (api: ProcessName) => Promise<void>]> = [
    [
      25,
      async (api) => {
        // a card charge (a tenth declined)
        const shop = pick(shops);
        const amount = between(100, 5000);
        const number = random() < 0.1 ? CARDS.declined : CARDS.success;
        const payment = created(
          await send(api, 'charge', 'POST', '/api/v1/business/payment/charge', shop.merchant, {
            amount: major(amount),
            currency: 'usd',
            card: card(number),
            email: `c-${crypto.randomUUID()}@example.com`,
          }),
          'payments',
        );
        if (payment?.status === 'COMPLETED') shop.payments.push({ id: payment.id, amount, refunded: 0 });
      },
    ],
    [
      10,
      async (api) => {
        // a partial refund of a payment (before or after its settlement)
        const shop = pick(shops);
        const payment = shop.payments.length ? pick(shop.payments) : null;
        if (!payment || payment.refunded >= payment.amount) return;
        const amount = between(1, Math.max(1, Math.floor((payment.amount - payment.refunded) / 2)));
        const refund = created(
          await send(api, 'refund', 'POST', `/api/v1/business/payments/${payment.id}/refunds`, shop.merchant, {
            amount: major(amount),
          }),
          'refunds',
        );
        if (refund) payment.refunded += amount;
      },
    ],
    [
      15,
      async (api) => {
        // a payout: settles, fails at the rail, or waits to be cancelled
        const shop = pick(shops);
        const kind = pick(['settles', 'settles', 'fails', 'manual'] as const);
        const payout = created(
          await send(api, 'payout', 'POST', '/api/v1/business/payouts', shop.merchant, {
            recipientId: shop.recipients[kind],
            amount: major(between(100, 3000)),
            currency: 'USD',
          }),
          'payouts',
        );
        if (payout && kind === 'manual') shop.manualPayouts.push(payout.id);
      },
    ],
    [
      6,
      async (api) => {
        // a cancel, of a payout waiting (or of one already moving: 409)
        const shop = pick(shops);
        const id =
          shop.manualPayouts.length && random() < 0.8
            ? shop.manualPayouts.splice(Math.floor(random() * shop.manualPayouts.length), 1)[0]
            : null;
        const target =
          id ??
          (
            await db.query(`SELECT id FROM payouts WHERE business_id = $1 ORDER BY random() LIMIT 1`, [
              shop.merchant.businessId,
            ])
          ).rows[0]?.id;
        if (target)
          await send(api, 'payout cancel', 'POST', `/api/v1/business/payouts/${target}/cancel`, shop.merchant);
      },
    ],
    [8, async (api) => fund(api, pick(shops), between(1000, 20000)).then(() => undefined)],
    [
      12,
      async (api) => {
        // a treasury payout: completes, fails, or waits to be cancelled
        const partner = pick(partners);
        const wallet = pick(partner.wallets);
        const outcome = pick(['success', 'success', 'failed', 'pending']);
        const payout = created(
          await send(api, 'treasury payout', 'POST', '/api/v1/treasury/payouts', partner.partner, {
            partnerEndUserId: wallet.userId,
            partnerWalletId: wallet.walletId,
            amount: major(between(100, 2000)),
            destinationType: 'bank_account',
            destination: {
              accountNumber: '000123456789',
              routingNumber: '021000021',
              accountName: 'Amara Obi',
              country: 'US',
            },
            metadata: { test_outcome: outcome },
          }),
          'treasury_payouts',
        );
        if (payout && outcome === 'pending') partner.pendingPayouts.push(payout.id);
      },
    ],
    [
      5,
      async (api) => {
        // a treasury payout cancelled
        const partner = pick(partners);
        const id = partner.pendingPayouts.splice(Math.floor(random() * partner.pendingPayouts.length), 1)[0];
        if (id) await send(api, 'treasury cancel', 'POST', `/api/v1/treasury/payouts/${id}/cancel`, partner.partner);
      },
    ],
    [
      5,
      async (api) => {
        const partner = pick(partners);
        await deposit(api, partner, pick(partner.wallets), between(1000, 10000));
      },
    ],
    [
      8,
      async (api) => {
        // a collection, paid (a tenth with the wrong amount)
        const shop = pick(shops);
        const amount = between(100_000, 5_000_000);
        const collection = created(
          await send(api, 'collection', 'POST', '/api/v1/business/collections', shop.merchant, {
            amount,
            currency: 'ngn',
            country: 'NG',
            rail: 'bank',
            customer: { email: 'ada@example.com', name: 'Ada Obi' },
            metadata: { load: 'bank' },
          }),
          'collections',
        );
        if (collection)
          await send(
            pick(APIS),
            'collection pay',
            'POST',
            `/api/v1/business/sandbox/collections/${collection.id}/pay`,
            shop.merchant,
            { amount: random() < 0.1 ? amount - 1 : amount },
          );
      },
    ],
  ];
  const totalWeight = OPERATIONS.reduce((sum, [weight]) => sum + weight, 0);
  const anOperation = () => {
    let roll = random() * totalWeight;
    for (const [weight, operation] of OPERATIONS) {
      roll -= weight;
      if (roll < 0) return operation;
    }
    return OPERATIONS[0][1];
  };

  test('money is conserved in every snapshot and at rest; every effect once, every event once, nothing stuck; ledger:check is clean', async () => {
    // Businesses and wallets, made over both processes.
    for (let index = 0; index < scale.bank.merchants; index += 1) {
      const api = APIS[index % 2];
      const merchant = await signUpMerchant(fleet, db, api, { charging: true });
      const shop: Shop = {
        merchant,
        payments: [],
        manualPayouts: [],
        recipients: {
          settles: await recipientOf(fleet, api, merchant, '6789'),
          fails: await recipientOf(fleet, api, merchant, '1111'),
          manual: await recipientOf(fleet, api, merchant, '3333'),
        },
      };
      shops.push(shop);
      await fund(api, shop, 50_000);
    }
    for (let index = 0; index < scale.bank.treasuryPartners; index += 1) {
      const api = APIS[index % 2];
      const partner: Partner = {
        partner: await signUpMerchant(fleet, db, api, { treasury: true }),
        wallets: [],
        pendingPayouts: [],
      };
      for (let user = 0; user < scale.bank.endUsersPerPartner; user += 1)
        partner.wallets.push(await endUserWallet(fleet, api, partner.partner));
      for (const wallet of partner.wallets) await deposit(api, partner, wallet, 20_000);
      partners.push(partner);
    }

    // The load, with snapshots taken while it runs.
    const every = Math.max(1, Math.floor(scale.bank.operations / (scale.bank.snapshots + 1)));
    let snapshotting: Promise<void> = Promise.resolve();
    await runPool(
      scale.bank.operations,
      scale.bank.concurrency,
      async (index) => anOperation()(APIS[index % 2]),
      async (done) => {
        if (done % every === 0 && snapshots < scale.bank.snapshots) {
          snapshots += 1;
          snapshotting = snapshotting.then(() => checkLedger(db, violations, inflows));
          await snapshotting;
        }
      },
    );
    await snapshotting;

    // At rest: what waits for someone is cancelled, the worker finishes the rest, then everything is checked.
    for (const shop of shops) {
      for (const id of shop.manualPayouts.splice(0))
        await send(pick(APIS), 'payout cancel', 'POST', `/api/v1/business/payouts/${id}/cancel`, shop.merchant);
    }
    for (const partner of partners) {
      for (const id of partner.pendingPayouts.splice(0))
        await send(pick(APIS), 'treasury cancel', 'POST', `/api/v1/treasury/payouts/${id}/cancel`, partner.partner);
    }
    await checkNothingStuck(db, violations);
    snapshots += 1;
    await checkLedger(db, violations, inflows);
    await checkRepeatedPostings(db, violations);
    await checkObjectsAgainstLedger(db, violations);
    await checkEvents(db, violations);
    for (const { table, id } of acknowledged) {
      const found = await db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
      if (found.rowCount !== 1) violations.add('acknowledged object missing', `${table} ${id}`);
    }

    // The operator's check of the whole ledger.
    const check = spawnTs('src/cli/index.ts', ['ledger:check'], {
      DATABASE_URL: deployment.databaseUrl,
      TESSERA_MASTER_KEY: 'reliability-master-key',
    });
    const exit = await check.exited;
    const printed = (() => {
      try {
        return JSON.parse(check.output());
      } catch {
        return null;
      }
    })();
    if (exit !== 0 || printed?.balanced !== true)
      violations.add('ledger:check not clean', `exit ${exit}: ${check.output().slice(0, 500)}`);

    expectNoViolations(violations);
    expect(operations).toBeGreaterThanOrEqual(scale.bank.operations);
  });
});
