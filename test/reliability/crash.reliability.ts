import crypto from 'node:crypto';
import { Pool } from 'pg';
import { card } from '../support/payments';
import { waitFor } from '../support/wait';
import { Fleet, Outcome, ProcessName, isAnswer } from './support/fleet';
import { Deployment, deploy, expectNoViolations } from './support/deployment';
import { Violations, recordFigures } from './support/figures';
import { LEDGER_CLASSES, checkLedger } from './support/ledger-checks';
import { Tally, major } from './support/load';
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
 * The crash matrix of issue 26: an API process and the worker killed with SIGKILL at several steps
 * of the charge, payout, treasury payout and collection paths (crash-points.ts), started again;
 * then every Idempotency-Key is retried until it answers for good, and the suite counts double
 * effects, lost acknowledged writes, keys answering "interrupted" while their object exists, stuck
 * rows, and missing or repeated events. All must be 0.
 *
 * The two clocks recovery waits on are moved forward rather than waited for (as
 * test/idempotency-crash.test.ts does): the 5-minute lease of a key whose holder died, and the
 * 2 minutes after which the worker asks the acquirer again about a payment left PENDING.
 */
const scale = scaleOf();

type Path = 'charge' | 'payout' | 'treasury payout' | 'collection' | 'collection pay';
interface Cell {
  path: Path;
  process: 'api' | 'worker';
  point: string;
  ci?: boolean;
}

/**
 * Where the matrix kills: `ci` marks the steps RELIABILITY_SCALE=ci runs (at least one per path,
 * both kinds of process). In the sandbox a collection's whole path runs in the API process (the
 * pay helper applies the rail's reports within the request), so its steps are the API's; the
 * worker's collection tasks only run for a real rail's callbacks.
 */
const MATRIX: Cell[] = [
  { path: 'charge', process: 'api', point: 'in-tx:payment.created' },
  { path: 'charge', process: 'api', point: 'call:card-acquirer.authorize', ci: true },
  { path: 'charge', process: 'api', point: 'response-store' },
  { path: 'charge', process: 'worker', point: 'in-tx:payment.settled', ci: true },
  { path: 'payout', process: 'api', point: 'in-tx:payout.initiated' },
  { path: 'payout', process: 'api', point: 'after-commit:payout.initiated' },
  { path: 'payout', process: 'api', point: 'response-store', ci: true },
  { path: 'payout', process: 'worker', point: 'in-tx:payout.submitted' },
  { path: 'payout', process: 'worker', point: 'call:payout-rail.submit', ci: true },
  { path: 'payout', process: 'worker', point: 'in-tx:payout.settled' },
  { path: 'treasury payout', process: 'api', point: 'in-tx:treasury.payout.created', ci: true },
  { path: 'treasury payout', process: 'api', point: 'response-store' },
  { path: 'treasury payout', process: 'worker', point: 'call:treasury-rail.submit' },
  { path: 'treasury payout', process: 'worker', point: 'in-tx:treasury.payout.completed', ci: true },
  { path: 'collection', process: 'api', point: 'in-tx:collection.created' },
  { path: 'collection', process: 'api', point: 'response-store' },
  { path: 'collection pay', process: 'api', point: 'in-tx:collection.completed' },
  { path: 'collection pay', process: 'api', point: 'response-store', ci: true },
];
const cells = MATRIX.filter((cell) => scale.crash.everyPoint || cell.ci);

const CLASSES = [
  'double effect',
  'lost acknowledged write',
  'interrupted although the object exists',
  'answer names another object',
  'answer 5xx',
  'crash point not reached',
  ...OBJECT_CLASSES,
  ...LEDGER_CLASSES,
];

/** One keyed request of the matrix: what it sends, where its object lives, and what it got. */
interface Keyed {
  key: string;
  cell: Cell;
  merchant: Merchant;
  path: string;
  body: Record<string, unknown>;
  table: string;
  /** The object id of a 2xx answer received before the kill, if any. */
  acknowledged?: string;
  /** For a payment of a collection: the collection paid. */
  paid?: string;
}

describe(`the crash matrix (RELIABILITY_SCALE=${scale.name}: ${cells.length} kills, ${scale.crash.operationsPerKill} keyed operations each)`, () => {
  let deployment: Deployment;
  let fleet: Fleet;
  let db: Pool;
  const violations = new Violations(CLASSES);
  const tally = new Tally();
  const keys: Keyed[] = [];
  let retries = 0;
  let shop: { merchant: Merchant; recipient: string };
  let partner: { merchant: Merchant; wallet: { userId: string; walletId: string } };

  beforeAll(async () => {
    deployment = await deploy();
    ({ fleet, db } = deployment);
  });
  afterAll(async () => {
    recordFigures({
      file: 'crash',
      scale: scale.name,
      operations: keys.length,
      snapshots: 1,
      kills: fleet?.kills ?? 0,
      retries,
      violations: violations.byClass,
      counts: { 'process starts': fleet?.starts ?? 0, ...tally.counts },
      examples: violations.examples,
    });
    await deployment?.close();
  });

  /** A keyed operation of `cell`'s path, marked with its key (metadata.rk) so its objects can be counted. */
  function keyedOperation(cell: Cell): Keyed {
    const key = `crash-${crypto.randomUUID()}`;
    const metadata = { rk: key };
    const amount = major(100 + Math.floor(Math.random() * 900));
    switch (cell.path) {
      case 'charge':
        return {
          key,
          cell,
          merchant: shop.merchant,
          table: 'payments',
          path: '/api/v1/business/payment/charge',
          body: { amount, currency: 'usd', card: card(), email: `${key}@example.com`, metadata },
        };
      case 'payout':
        return {
          key,
          cell,
          merchant: shop.merchant,
          table: 'payouts',
          path: '/api/v1/business/payouts',
          body: { recipientId: shop.recipient, amount, currency: 'USD', metadata },
        };
      case 'treasury payout':
        return {
          key,
          cell,
          merchant: partner.merchant,
          table: 'treasury_payouts',
          path: '/api/v1/treasury/payouts',
          body: {
            partnerEndUserId: partner.wallet.userId,
            partnerWalletId: partner.wallet.walletId,
            amount,
            destinationType: 'bank_account',
            destination: {
              accountNumber: '000123456789',
              routingNumber: '021000021',
              accountName: 'Amara Obi',
              country: 'US',
            },
            metadata,
          },
        };
      case 'collection':
        return {
          key,
          cell,
          merchant: shop.merchant,
          table: 'collections',
          path: '/api/v1/business/collections',
          body: collectionBody(key),
        };
      case 'collection pay':
        throw new Error('a collection is paid by payOperation');
    }
  }

  const collectionBody = (key: string) => ({
    amount: 500_000,
    currency: 'ngn',
    country: 'NG',
    rail: 'bank',
    customer: { email: 'ada@example.com', name: 'Ada Obi' },
    metadata: { rk: key },
  });

  /** The payer's payment of a collection made beforehand (on the process that stays up): its object is the collection, once completed. */
  async function payOperation(cell: Cell): Promise<Keyed> {
    const key = `crash-${crypto.randomUUID()}`;
    const collection = await fleet.answer('api-b', 'POST', '/api/v1/business/collections', {
      headers: keyed(shop.merchant),
      body: collectionBody(key),
    });
    const id: string = collection.body.data.id;
    return {
      key,
      cell,
      merchant: shop.merchant,
      table: 'collections',
      path: `/api/v1/business/sandbox/collections/${id}/pay`,
      body: { amount: 500_000 },
      paid: id,
    };
  }

  /** The objects a key made: rows marked with it; for a payment of a collection, the collection once completed. */
  async function objectsOf(op: Keyed): Promise<string[]> {
    const rows = op.paid
      ? await db.query(`SELECT id FROM collections WHERE id = $1 AND status = 'completed'`, [op.paid])
      : await db.query(`SELECT id FROM ${op.table} WHERE metadata->>'rk' = $1`, [op.key]);
    return rows.rows.map((row) => row.id as string);
  }

  const send = (api: ProcessName, op: Keyed) =>
    fleet.request(api, 'POST', op.path, { headers: keyed(op.merchant, op.key), body: op.body });
  const idOf = (outcome: Outcome) =>
    isAnswer(outcome) && outcome.status < 300 ? (outcome.body?.data?.id as string) : undefined;

  /** Sends the cell's operations towards the process that will die, and waits for it to die. */
  async function kill(cell: Cell) {
    const target: ProcessName = cell.process === 'api' ? 'api-a' : 'api-b';
    const ops: Keyed[] = [];
    for (let index = 0; index < scale.crash.operationsPerKill; index += 1)
      ops.push(cell.path === 'collection pay' ? await payOperation(cell) : keyedOperation(cell));
    keys.push(...ops);
    const outcomes = await Promise.all(
      ops.map(async (op) => {
        const outcome = await send(target, op);
        op.acknowledged = idOf(outcome);
        tally.add(`${cell.path} before the kill: ${isAnswer(outcome) ? outcome.status : 'connection lost'}`);
        return outcome;
      }),
    );
    const processName: ProcessName = cell.process === 'api' ? 'api-a' : 'worker';
    try {
      await fleet.crashed(processName);
    } catch (error) {
      violations.add(
        'crash point not reached',
        `${cell.path} ${cell.process} ${cell.point}: ${(error as Error).message.slice(0, 200)}; answers ${JSON.stringify(outcomes.map((o) => (isAnswer(o) ? o.status : 'lost')))}`,
      );
      await fleet.kill(processName);
    }
  }

  test('after every kill and restart, each key answers for one effect: no double effect, nothing acknowledged lost, nothing stuck, each event once', async () => {
    shop = { merchant: await signUpMerchant(fleet, db, 'api-b', { charging: true }), recipient: '' };
    shop.recipient = await recipientOf(fleet, 'api-b', shop.merchant, '6789');
    await fleet.answer('api-b', 'POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: keyed(shop.merchant),
      body: { amount: '100000.00', currency: 'usd' },
    });
    const partnerMerchant = await signUpMerchant(fleet, db, 'api-b', { treasury: true });
    partner = { merchant: partnerMerchant, wallet: await endUserWallet(fleet, 'api-b', partnerMerchant) };
    await fleet.answer(
      'api-b',
      'POST',
      `/api/v1/treasury/sandbox/users/${partner.wallet.userId}/wallets/${partner.wallet.walletId}/deposit`,
      { headers: keyed(partner.merchant), body: { amount: '100000.00' } },
    );

    // API cells: API process A is started to die at each step in turn (B stays up); then worker cells.
    for (const cell of cells.filter((c) => c.process === 'api')) {
      await fleet.restart('api-a', cell.point);
      await kill(cell);
    }
    await fleet.launch('api-a');
    for (const cell of cells.filter((c) => c.process === 'worker')) {
      await fleet.restart('worker', cell.point);
      await kill(cell);
    }
    await fleet.launch('worker');

    // The lease of every key whose holder died, and the acquirer's silence, have run out.
    await db.query(`UPDATE idempotency_keys SET leased_until = now() WHERE state = 'in_flight' AND key = ANY($1)`, [
      keys.map((op) => op.key),
    ]);
    await db.query(`UPDATE payments SET created_at = created_at - interval '3 minutes' WHERE status = 'PENDING'`);

    // Every key again, over both processes, until it answers for good (not "in progress").
    let turn = 0;
    for (const op of keys) {
      const final = await waitFor(
        async () => {
          retries += 1;
          turn += 1;
          return send(turn % 2 ? 'api-a' : 'api-b', op);
        },
        (outcome) => isAnswer(outcome) && outcome.body?.error?.code !== 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
        180_000,
        500,
      );
      const code = isAnswer(final) ? (final.body?.error?.code ?? final.status) : 'connection lost';
      tally.add(`${op.cell.path} retried: ${code}`);
      if (!isAnswer(final) || final.status >= 500)
        violations.add(
          'answer 5xx',
          `${op.cell.point} ${op.key}: ${JSON.stringify(isAnswer(final) ? final.body : final)}`,
        );
      const objects = await objectsOf(op);
      const answered = idOf(final);
      const where = `${op.cell.path} killed at ${op.cell.point} (${op.cell.process}), key ${op.key}`;
      if (objects.length > 1) violations.add('double effect', `${where}: ${objects.length} objects`);
      if (op.acknowledged && !objects.includes(op.acknowledged))
        violations.add(
          'lost acknowledged write',
          `${where}: acknowledged ${op.acknowledged}, found ${objects.join(', ') || 'none'}`,
        );
      if (answered && !objects.includes(answered))
        violations.add(
          objects.length ? 'answer names another object' : 'lost acknowledged write',
          `${where}: answered ${answered}, found ${objects.join(', ') || 'none'}`,
        );
      if (op.acknowledged && answered && answered !== op.acknowledged)
        violations.add('answer names another object', `${where}: acknowledged ${op.acknowledged}, then ${answered}`);
      if (isAnswer(final) && final.body?.error?.code === 'IDEMPOTENCY_REQUEST_INTERRUPTED' && objects.length > 0) {
        violations.add('interrupted although the object exists', `${where}: ${objects[0]}`);
      }
    }

    await checkNothingStuck(db, violations);
    await checkRepeatedPostings(db, violations);
    await checkObjectsAgainstLedger(db, violations);
    await checkEvents(db, violations);
    await checkLedger(db, violations, null);

    expectNoViolations(violations);
  });
});
