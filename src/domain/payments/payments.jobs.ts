import { AreaJobs, cronLine } from '../shared/jobs';
import type { ChargeService } from './charge.service';
import type { PaymentService } from './payment.service';
import type { RefundService } from './refund.service';
import {
  SETTLE_PAYMENT_TASK,
  COMPLETE_3DS_TASK,
  RECONCILE_PENDING_TASK,
  PURGE_DEDUPE_CLAIMS_TASK,
  RECONCILE_PENDING_REFUNDS_TASK,
} from './payments.job-names';

export function paymentJobs(
  payments: Pick<PaymentService, 'settleDue' | 'reconcilePending' | 'autoCompleteThreeDSecure'>,
  charges: Pick<ChargeService, 'purgeDedupeClaims'>,
  refunds: Pick<RefundService, 'reconcilePending'>,
): AreaJobs {
  return {
    actor: 'payments',
    tasks: {
      /** Settles a captured card payment into the merchant wallet once its settlement delay has passed. */
      [SETTLE_PAYMENT_TASK]: async (payload, _log, system) => {
        await payments.settleDue(system(), (payload as { paymentId: string }).paymentId);
      },
      /** Payments left PENDING by a process that died mid-charge get their acquirer answer. */
      [RECONCILE_PENDING_TASK]: async (_payload, log, system) => {
        const reconciled = await payments.reconcilePending(system());
        if (reconciled > 0) log.warn(`reconciled ${reconciled} payment(s) left pending by an interrupted charge`);
      },
      /** Refunds left pending by a lost acquirer answer (and no retry of their key) get the acquirer's outcome. */
      [RECONCILE_PENDING_REFUNDS_TASK]: async (_payload, log, system) => {
        const resolved = await refunds.reconcilePending(system());
        if (resolved > 0) log.warn(`resolved ${resolved} refund(s) left pending by a lost acquirer answer`);
      },
      /** The sandbox's automatic 3-D Secure challenge completion. */
      [COMPLETE_3DS_TASK]: async (payload, _log, system) => {
        await payments.autoCompleteThreeDSecure(system(), (payload as { paymentId: string }).paymentId);
      },
      /** Forgets charge de-duplication claims past their window. */
      [PURGE_DEDUPE_CLAIMS_TASK]: async (_payload, log, system) => {
        const purged = await charges.purgeDedupeClaims(system());
        if (purged > 0) log.info(`purged ${purged} charge de-duplication claims past their window`);
      },
    },
    crontab: [
      cronLine('* * * * *', RECONCILE_PENDING_TASK),
      cronLine('* * * * *', RECONCILE_PENDING_REFUNDS_TASK),
      cronLine('15 * * * *', PURGE_DEDUPE_CLAIMS_TASK),
    ],
  };
}
