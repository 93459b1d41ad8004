/**
 * The real server (src/main.ts), killed with SIGKILL at one step of a card charge, named by
 * TESSERA_TEST_CRASH_AT. Nothing after the step runs: no catch, no finally, no response; what the
 * open transaction wrote is rolled back by PostgreSQL when the connection drops, as after a kill -9.
 *
 * - before-payment-commits: inside the transaction that records the payment (at payment.created)
 * - before-answer-recorded: while the acquirer is being asked (the payment is committed, PENDING)
 * - before-response-stored: after the acquirer's answer is recorded, before the response is stored
 */
import { projectModule } from './process';

// The classes patched here are those of the code the server runs: dist/ when the run built it.
const { EventService } =
  projectModule<typeof import('../../src/domain/events/event.service')>('domain/events/event.service');
const { IdempotencyService } = projectModule<typeof import('../../src/domain/idempotency/idempotency.service')>(
  'domain/idempotency/idempotency.service',
);
const { SandboxCardAcquirer } = projectModule<typeof import('../../src/providers/card-acquirer/sandbox')>(
  'providers/card-acquirer/sandbox',
);

const die = (): Promise<never> => {
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => undefined);
};

switch (process.env.TESSERA_TEST_CRASH_AT) {
  case 'before-payment-commits': {
    // The charge records payment.created with recordBehind (not waited for); either door dies there.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the instance as this
    const record = EventService.prototype.record;
    EventService.prototype.record = function (
      this: InstanceType<typeof EventService>,
      ...args: Parameters<typeof record>
    ) {
      return args[1] === 'payment.created' ? die() : record.apply(this, args);
    };
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the instance as this
    const recordBehind = EventService.prototype.recordBehind;
    EventService.prototype.recordBehind = function (
      this: InstanceType<typeof EventService>,
      ...args: Parameters<typeof recordBehind>
    ) {
      if (args[1] === 'payment.created') void die();
      else recordBehind.apply(this, args);
    };
    break;
  }
  case 'before-answer-recorded':
    SandboxCardAcquirer.prototype.authorize = die;
    break;
  case 'before-response-stored':
    IdempotencyService.prototype.complete = die;
    break;
  default:
    throw new Error(`TESSERA_TEST_CRASH_AT must name a crash point, not ${process.env.TESSERA_TEST_CRASH_AT}`);
}

projectModule('main');
