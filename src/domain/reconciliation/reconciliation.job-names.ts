/** The daily reconciliation (cron, 02:10 UTC): the previous UTC day, once the acquirer's late entries are in. */
export const RECONCILE_ACQUIRER_TASK = 'reconcile_card_acquirer';
