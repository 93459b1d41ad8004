/**
 * A payment's short reference: the first 12 hex digits of its id, upper case, grouped as the id
 * groups them (`3F9AC21B-7E04` for `3f9ac21b-7e04-4…`). It is what the payer's receipt shows and
 * what a payer reads to support; a merchant finds the payment with the list filter `reference`
 * (REST `GET /business/payments?reference=…`, GraphQL `payments(filter: { reference })`), and can
 * also tell it from the start of the id in any list. Ids are random (v4 UUIDs), so 48 bits: two
 * payments of one business share a reference about once in 300 million pairs, and the filter then
 * lists both. Nothing is stored: the reference is the id's own prefix, so the lookup is a range of
 * the primary key.
 */
export function paymentReferenceOf(paymentId: string): string {
  const hex = paymentId.replace(/-/g, '').slice(0, 12).toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
}

/** The shape of a reference as people type it: 12 hex digits, any case, spaces or a dash anywhere. */
export const PAYMENT_REFERENCE = /^[0-9a-f]{12}$/i;

/** The 12 hex digits of a typed reference (`3f9a c21b-7e04` → `3f9ac21b7e04`), or null when it is not one. */
export function referenceDigitsOf(typed: string): string | null {
  const digits = typed.replace(/[\s-]/g, '').toLowerCase();
  return PAYMENT_REFERENCE.test(digits) ? digits : null;
}

/** The smallest and largest payment ids a reference stands for (a range of the primary key). */
export function paymentIdRangeOf(digits: string): { low: string; high: string } {
  const head = `${digits.slice(0, 8)}-${digits.slice(8, 12)}`;
  return { low: `${head}-0000-0000-000000000000`, high: `${head}-ffff-ffff-ffffffffffff` };
}
