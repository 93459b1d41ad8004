/** The payments area's background tasks (src/jobs/worker.ts runs them). */
export const SETTLE_PAYMENT_TASK = 'settle_payment';
export const COMPLETE_3DS_TASK = 'complete_sandbox_3ds';
export const RECONCILE_PENDING_TASK = 'reconcile_pending_payments';
export const PURGE_DEDUPE_CLAIMS_TASK = 'purge_charge_dedupe_claims';

/** A payment still PENDING this long after creation lost its acquirer answer (the process died mid-charge). */
export const PENDING_RECONCILE_AFTER_SECONDS = 120;
