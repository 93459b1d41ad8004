/** The payments area's background tasks (src/jobs/worker.ts runs them). */
export const SETTLE_PAYMENT_TASK = 'settle_payment';
export const COMPLETE_3DS_TASK = 'complete_sandbox_3ds';
export const RECONCILE_PENDING_TASK = 'reconcile_pending_payments';
export const PURGE_DEDUPE_CLAIMS_TASK = 'purge_charge_dedupe_claims';
export const RECONCILE_PENDING_REFUNDS_TASK = 'reconcile_pending_refunds';

/** A payment still PENDING this long after creation lost its acquirer answer (the process died mid-charge). */
export const PENDING_RECONCILE_AFTER_SECONDS = 120;

/** A refund still pending this long after it was claimed lost its acquirer answer, and no retry of its key came. */
export const PENDING_REFUND_RECONCILE_AFTER_SECONDS = 60;
