import { AreaJobs, cronLine } from '../shared/jobs';
import type { ChargeService } from './charge.service';
import type { PaymentService } from './payment.service';

/** The payments area's background tasks (src/jobs/worker.ts runs them). */
export const SETTLE_PAYMENT_TASK = 'settle_payment';
export const COMPLETE_3DS_TASK = 'complete_sandbox_3ds';
export const RECONCILE_PENDING_TASK = 'reconcile_pending_payments';
export const PURGE_DEDUPE_CLAIMS_TASK = 'purge_charge_dedupe_claims';

/** A payment still PENDING this long after creation lost its acquirer answer (the process died mid-charge). */
export const PENDING_RECONCILE_AFTER_SECONDS = 120;

export function paymentJobs(
  payments: Pick<PaymentService, 'settleDue' | 'reconcilePending' | 'autoCompleteThreeDSecure'>,
  charges: Pick<ChargeService, 'purgeDedupeClaims'>,
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
    crontab: [cronLine('* * * * *', RECONCILE_PENDING_TASK), cronLine('15 * * * *', PURGE_DEDUPE_CLAIMS_TASK)],
  };
}
