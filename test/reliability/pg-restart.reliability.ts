import crypto from 'node:crypto';
import { Pool } from 'pg';
import { card } from '../support/payments';
import { waitFor, waitUntil } from '../support/wait';
import { APIS, Fleet, Outcome, ProcessName, isAnswer } from './support/fleet';
import { Deployment, deploy, expectNoViolations } from './support/deployment';
import { SuiteCluster } from './support/cluster';
import { Violations, recordFigures } from './support/figures';
import { Inflows, LEDGER_CLASSES, checkLedger } from './support/ledger-checks';
import { Tally, major, runPool } from './support/load';
import { Merchant, keyed, recipientOf, signUpMerchant } from './support/merchants';
import {
  OBJECT_CLASSES,
  checkEvents,
  checkNothingStuck,
  checkObjectsAgainstLedger,
  checkRepeatedPostings,
} from './support/object-checks';
import { scaleOf } from './support/scale';

/**
 * PostgreSQL (the suite's own embedded one) stopped and started again while two API processes and
 * a worker serve keyed charges, payouts and fundings. While it is down every answer is 503
 * SERVICE_UNAVAILABLE with Retry-After, never a 500 and never a dropped connection; once it is
 * back the service recovers by itself (no process restarted, /readyz 200 on both); every request
 * retried with its key then answers for good, and nothing acknowledged is lost.
 *
 * The outage lasts a number of answers, not a time: PostgreSQL starts again once the processes
 * have answered `operationsPerRestart / 6` requests while it was down.
 */
const scale = scaleOf();
const { restarts, operationsPerRestart, concurrency } = scale.pgRestart;

const CLASSES = [
  'answer 500',
  'answer 5xx other than 503',
  '503 without Retry-After or SERVICE_UNAVAILABLE',
  'connection lost',
  'process exited',
  'not ready again',
  'acknowledged object missing',
  'answer names another object',
  ...LEDGER_CLASSES,
  ...OBJECT_CLASSES,
];

type Phase = 'up' | 'down' | 'starting';

interface Keyed {
  key: string;
  kind: 'charge' | 'payout' | 'fund';
  path: string;
  body: Record<string, unknown>;
  table: string | null;
  minor: bigint;
  /** The object of its first 2xx answer. */
  acknowledged?: string;
  final?: Outcome;
}

describe(`PostgreSQL restarted under load (RELIABILITY_SCALE=${scale.name}: ${restarts} restart(s), ${operationsPerRestart} keyed operations each)`, () => {
  let cluster: SuiteCluster;
  let deployment: Deployment;
  let fleet: Fleet;
  let db: Pool;
  const violations = new Violations(CLASSES);
  const tally = new Tally();
  const inflows = new Inflows();
  const ops: Keyed[] = [];
  let retries = 0;
  let snapshots = 0;
  let phase: Phase = 'up';
  let merchant: Merchant;
  let recipient: string;

  beforeAll(async () => {
    cluster = await SuiteCluster.start();
    deployment = await deploy(cluster.url, () => cluster.destroy());
    ({ fleet, db } = deployment);
  });
  afterAll(async () => {
    recordFigures({
      file: 'pg-restart',
      scale: scale.name,
      operations: ops.length,
      snapshots,
      kills: 0,
      retries,
      violations: violations.byClass,
      counts: { 'PostgreSQL restarts': cluster?.stops ?? 0, ...tally.counts },
      examples: violations.examples,
    });
    if (deployment) await deployment.close();
    else await cluster?.destroy();
  });

  function operation(): Keyed {
    const key = `pg-${crypto.randomUUID()}`;
    const minor = BigInt(100 + Math.floor(Math.random() * 900));
    const roll = Math.random();
    if (roll < 0.5) {
      return {
        key,
        kind: 'charge',
        table: 'payments',
        path: '/api/v1/business/payment/charge',
        minor,
        body: {
          amount: major(minor),
          currency: 'usd',
          card: card(),
          email: `${key}@example.com`,
          metadata: { rk: key },
        },
      };
    }
    if (roll < 0.8) {
      return {
        key,
        kind: 'payout',
        table: 'payouts',
        path: '/api/v1/business/payouts',
        minor,
        body: { recipientId: recipient, amount: major(minor), currency: 'USD', metadata: { rk: key } },
      };
    }
    return {
      key,
      kind: 'fund',
      table: null,
      path: '/api/v1/business/sandbox/wallets/fund',
      minor,
      body: { amount: major(minor), currency: 'usd' },
    };
  }

  /** Sends `op` once over `api` and judges the answer by the phase it came back in. */
  async function attempt(api: ProcessName, op: Keyed): Promise<Outcome> {
    const sentIn = phase;
    const outcome = await fleet.request(api, 'POST', op.path, { headers: keyed(merchant, op.key), body: op.body });
    const answeredIn = phase;
    const during = sentIn === 'up' && answeredIn === 'up' ? 'up' : 'outage';
    if (!isAnswer(outcome)) {
      violations.add('connection lost', `${op.kind} on ${api} (${during}): ${outcome.lost}`);
      return outcome;
    }
    tally.add(`${op.kind} ${during === 'up' ? 'while up' : 'around the outage'}: ${outcome.status}`);
    if (outcome.status === 500)
      violations.add('answer 500', `${op.kind} on ${api} (${during}): ${JSON.stringify(outcome.body).slice(0, 200)}`);
    else if (outcome.status > 500 && outcome.status !== 503)
      violations.add('answer 5xx other than 503', `${op.kind} on ${api}: ${outcome.status}`);
    else if (
      outcome.status === 503 &&
      (!outcome.headers.get('retry-after') || outcome.body?.error?.code !== 'SERVICE_UNAVAILABLE')
    ) {
      violations.add(
        '503 without Retry-After or SERVICE_UNAVAILABLE',
        `${op.kind} on ${api}: retry-after ${outcome.headers.get('retry-after')}, ${JSON.stringify(outcome.body).slice(0, 200)}`,
      );
    }
    if (outcome.status < 300 && !op.acknowledged && op.table) op.acknowledged = outcome.body?.data?.id;
    return outcome;
  }

  const isFinal = (outcome: Outcome | undefined) =>
    outcome !== undefined &&
    isAnswer(outcome) &&
    outcome.status < 500 &&
    outcome.body?.error?.code !== 'IDEMPOTENCY_REQUEST_IN_PROGRESS';

  test('while PostgreSQL is down: 503 with Retry-After, never 500; once back: ready by itself, every key answers, nothing acknowledged lost', async () => {
    merchant = await signUpMerchant(fleet, db, 'api-a', { charging: true });
    recipient = await recipientOf(fleet, 'api-a', merchant, '6789');
    await inflows.track(
      'USD',
      5_000_000n,
      async () =>
        (
          await fleet.answer('api-a', 'POST', '/api/v1/business/sandbox/wallets/fund', {
            headers: keyed(merchant),
            body: { amount: '50000.00', currency: 'usd' },
          })
        ).status === 201,
    );

    for (let round = 0; round < restarts; round += 1) {
      const batch = Array.from({ length: operationsPerRestart }, operation);
      ops.push(...batch);
      let done = 0;
      let answeredDown = 0;
      const outage = (async () => {
        await waitUntil(() => done >= Math.floor(operationsPerRestart / 3), 'the first third of the load', 600_000);
        await cluster.stop();
        phase = 'down';
        await waitUntil(
          () => answeredDown >= Math.ceil(operationsPerRestart / 6),
          'answers while PostgreSQL is down',
          600_000,
        );
        phase = 'starting';
        await cluster.restart();
        phase = 'up';
      })();
      await runPool(batch.length, concurrency, async (index) => {
        const op = batch[index];
        const send = async () => {
          const outcome = await attempt(APIS[index % 2], op);
          if (phase === 'down') answeredDown += 1;
          op.final = outcome;
          return isAnswer(outcome) && outcome.status < 300;
        };
        if (op.kind === 'fund') await inflows.track('USD', op.minor, send);
        else await send();
        done += 1;
      });
      await outage;

      // Recovery without a manual step: the same processes, ready again.
      for (const name of ['api-a', 'api-b', 'worker'] as ProcessName[]) {
        if (!fleet.running(name))
          violations.add('process exited', `${name} exited during the outage:\n${fleet.output(name).slice(-1500)}`);
      }
      for (const api of APIS) {
        if (!fleet.running(api)) continue;
        const ready = await waitFor(
          () => fleet.request(api, 'GET', '/readyz'),
          (outcome) => isAnswer(outcome) && outcome.status === 200,
          120_000,
          100,
        );
        if (!isAnswer(ready) || ready.status !== 200)
          violations.add('not ready again', `${api}: ${JSON.stringify(isAnswer(ready) ? ready.body : ready)}`);
      }
      snapshots += 1;
      await checkLedger(db, violations, null);
    }

    // Every key not answered for good is sent again (its holder's lease, if the outage cut it, has run out).
    const unanswered = ops.filter((op) => !isFinal(op.final));
    await db.query(`UPDATE idempotency_keys SET leased_until = now() WHERE state = 'in_flight' AND key = ANY($1)`, [
      unanswered.map((op) => op.key),
    ]);
    let turn = 0;
    for (const op of unanswered) {
      const retry = async () => {
        const final = await waitFor(
          async () => {
            retries += 1;
            turn += 1;
            return attempt(APIS[turn % 2], op);
          },
          isFinal,
          120_000,
          250,
        );
        op.final = final;
        return isAnswer(final) && final.status < 300;
      };
      if (op.kind === 'fund') await inflows.track('USD', op.minor, retry);
      else await retry();
    }

    // Nothing acknowledged lost, each key one object, and the books as everywhere else.
    for (const op of ops.filter((candidate) => candidate.table)) {
      const objects = (await db.query(`SELECT id FROM ${op.table} WHERE metadata->>'rk' = $1`, [op.key])).rows.map(
        (row) => row.id as string,
      );
      const answered = isAnswer(op.final!) && op.final.status < 300 ? op.final.body?.data?.id : undefined;
      if (op.acknowledged && !objects.includes(op.acknowledged))
        violations.add('acknowledged object missing', `${op.kind} ${op.acknowledged}`);
      if (answered && !objects.includes(answered))
        violations.add(
          'answer names another object',
          `${op.kind} ${op.key}: answered ${answered}, found ${objects.join(', ') || 'none'}`,
        );
      if (objects.length > 1)
        violations.add('repeated ledger posting', `${op.kind} ${op.key}: ${objects.length} objects for one key`);
    }
    await checkNothingStuck(db, violations);
    snapshots += 1;
    await checkLedger(db, violations, inflows);
    await checkRepeatedPostings(db, violations);
    await checkObjectsAgainstLedger(db, violations);
    await checkEvents(db, violations);

    expectNoViolations(violations);
  });
});
