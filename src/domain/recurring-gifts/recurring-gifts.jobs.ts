import { AreaJobs } from '../shared/jobs';
import type { RecurringGiftService } from './recurring-gift.service';
import { CHARGE_RECURRING_GIFT_TASK } from './recurring-gifts.job-names';

/** Recurring gifts' background task (src/jobs/worker.ts runs it). */
export function recurringGiftJobs(gifts: Pick<RecurringGiftService, 'chargeDue'>): AreaJobs {
  return {
    actor: 'recurring-gifts',
    tasks: {
      /** Charges a recurring gift whose nextChargeAt has come. */
      [CHARGE_RECURRING_GIFT_TASK]: async (payload, _log, system) => {
        await gifts.chargeDue(system(), (payload as { recurringGiftId: string }).recurringGiftId);
      },
    },
  };
}
