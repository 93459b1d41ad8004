/**
 * A Tessera process (the server or the worker) killed with SIGKILL at one step, named by
 * TESSERA_TEST_CRASH_AT, then the entry point named by TESSERA_CRASH_ENTRY (src/main.ts, or the CLI
 * with its arguments: `worker`). The reliability suite's crash matrix spawns it; the idea is
 * test/support/crashing-server.ts's, for every path the matrix covers. Nothing after the step runs:
 * no catch, no finally, no response; what the open transaction wrote is rolled back by PostgreSQL
 * when the connection drops, as after a kill -9.
 *
 * Steps:
 * - `in-tx:<event type>`: inside the transaction that records that event (nothing of it commits);
 * - `after-commit:<event type>`: just after the transaction that recorded it committed;
 * - `call:<provider>`: when a sandbox provider is called, after what came before committed
 *   (`card-acquirer.authorize`, `payout-rail.submit`, `treasury-rail.submit`);
 * - `response-store`: after the request's effects committed, before its response is stored for its Idempotency-Key.
 */
import { projectModule } from '../../support/process';

// The classes patched here are those of the code the process runs: dist/ when the run built it.
const { EventService } =
  projectModule<typeof import('../../../src/domain/events/event.service')>('domain/events/event.service');
const { IdempotencyService } = projectModule<typeof import('../../../src/domain/idempotency/idempotency.service')>(
  'domain/idempotency/idempotency.service',
);
const { SandboxCardAcquirer } = projectModule<typeof import('../../../src/providers/card-acquirer/sandbox')>(
  'providers/card-acquirer/sandbox',
);
const { SandboxPayoutRail } = projectModule<typeof import('../../../src/providers/payout-rail/sandbox')>(
  'providers/payout-rail/sandbox',
);
const { SandboxTreasuryRail } = projectModule<typeof import('../../../src/providers/treasury-rail/sandbox')>(
  'providers/treasury-rail/sandbox',
);

const die = (): Promise<never> => {
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => undefined);
};

const PROVIDER_CALLS: Record<string, { prototype: object; method: string }> = {
  'card-acquirer.authorize': { prototype: SandboxCardAcquirer.prototype, method: 'authorize' },
  'payout-rail.submit': { prototype: SandboxPayoutRail.prototype, method: 'submit' },
  'treasury-rail.submit': { prototype: SandboxTreasuryRail.prototype, method: 'submit' },
};

const point = process.env.TESSERA_TEST_CRASH_AT ?? '';
const [kind, ...rest] = point.split(':');
const target = rest.join(':');

if (kind === 'in-tx' || kind === 'after-commit') {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the instance as this
  const record = EventService.prototype.record;
  EventService.prototype.record = async function (
    this: InstanceType<typeof EventService>,
    ...args: Parameters<typeof record>
  ) {
    if (args[1] !== target) return record.apply(this, args);
    if (kind === 'in-tx') return die();
    const event = await record.apply(this, args);
    args[0].afterCommit(() => void die());
    return event;
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the instance as this
  const recordBehind = EventService.prototype.recordBehind;
  EventService.prototype.recordBehind = function (
    this: InstanceType<typeof EventService>,
    ...args: Parameters<typeof recordBehind>
  ) {
    if (args[1] === target && kind === 'in-tx') void die();
    else {
      recordBehind.apply(this, args);
      if (args[1] === target) args[0].afterCommit(() => void die());
    }
  };
} else if (kind === 'call' && PROVIDER_CALLS[target]) {
  const { prototype, method } = PROVIDER_CALLS[target];
  (prototype as Record<string, unknown>)[method] = die;
} else if (kind === 'response-store') {
  IdempotencyService.prototype.complete = die;
} else {
  throw new Error(
    `TESSERA_TEST_CRASH_AT must name a crash point (in-tx:<event>, after-commit:<event>, call:<provider>, response-store), not '${point}'`,
  );
}

const entry = process.env.TESSERA_CRASH_ENTRY;
if (!entry) throw new Error('TESSERA_CRASH_ENTRY must name the entry point to run (src/main.ts or src/cli/index.ts)');
projectModule(entry.replace(/^src\//, '').replace(/\.ts$/, ''));
