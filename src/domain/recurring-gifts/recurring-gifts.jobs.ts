import { AreaJobs } from '../shared/jobs';
import type { RecurringGiftService } from './recurring-gift.service';

export const CHARGE_RECURRING_GIFT_TASK = 'charge_recurring_gift';

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
