/**
 * The operator CLI's worker (src/cli/index.ts, `worker`), killed with SIGKILL inside the
 * transaction that applies a provider event: Stripe's `payment_intent.succeeded` handler writes a
 * row of the test's `handler_writes` table through the inbox's transaction, then the process dies
 * before that transaction commits, as after a kill -9. PostgreSQL rolls the write back when the
 * connection drops; the job stays locked by the dead worker until its lock is stale.
 */
import type { ProviderEventHandler } from '../../src/providers/webhooks/port';
import { projectModule } from './process';

// The class patched here is that of the code the worker runs: dist/ when the run built it.
const { ProviderRegistry } = projectModule<typeof import('../../src/providers/registry')>('providers/registry');

const writeThenDie: ProviderEventHandler = async ({ tx, event }) => {
  await tx.em.query(`INSERT INTO handler_writes (event_id) VALUES ($1)`, [event.id]);
  process.kill(process.pid, 'SIGKILL');
  await new Promise<never>(() => undefined);
};

// eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the instance as this
const inboundWebhooksOf = ProviderRegistry.prototype.inboundWebhooksOf;
ProviderRegistry.prototype.inboundWebhooksOf = function (
  this: InstanceType<typeof ProviderRegistry>,
  provider: string,
) {
  const webhooks = inboundWebhooksOf.call(this, provider);
  return webhooks && { ...webhooks, handlers: { ...webhooks.handlers, 'payment_intent.succeeded': writeThenDie } };
};

projectModule('cli/index');
