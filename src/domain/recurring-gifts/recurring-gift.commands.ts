import { RecurringGiftStatus } from './recurring-gift.entity';

export interface RecurringGiftFilters {
  status?: RecurringGiftStatus;
  /** A payment link id (uuid). */
  paymentLinkId?: string;
}
