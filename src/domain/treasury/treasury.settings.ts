import { ALL_ROLES, RequestContext, WRITE_ROLES } from '../shared/context';
import { Business, requireTreasuryPartner } from '../identity';
import type { ProductSettings } from '../identity';

/**
 * The treasury product's switch: a treasury partner is a business with the treasury product
 * enabled (design section 4); every treasury operation starts with `requireTreasuryPartner` (src/domain/identity/products.ts).
 * Operators switch the product with `tessera business update --treasury on|off`.
 */
export interface TreasurySettingsChanges {
  treasuryEnabled?: boolean;
}

/** The treasury switch `tessera business update` changes: a column of the business row, which identity saves. */
export const treasuryProductSettings: ProductSettings<TreasurySettingsChanges> = {
  errors: () => ({}),
  async apply(_tx, business, { treasuryEnabled }) {
    if (treasuryEnabled !== undefined) business.treasuryEnabled = treasuryEnabled;
  },
};

/** What a treasury operation needs: reading, writing, or a sandbox helper (writing with test credentials). */
export type TreasuryAccess = 'read' | 'write' | 'sandbox';

/**
 * The refusals every treasury operation starts with, in order: the caller's role, the treasury
 * product (403), and for sandbox helpers test credentials (403 SANDBOX_ONLY). Faces may ask first,
 * before they read the input, so a non-partner hears 403 rather than a validation error.
 */
export async function requireTreasuryAccess(ctx: RequestContext, access: TreasuryAccess): Promise<Business> {
  ctx.requireRole(...(access === 'read' ? ALL_ROLES : WRITE_ROLES));
  const business = await requireTreasuryPartner(ctx);
  if (access === 'sandbox') ctx.requireSandbox();
  return business;
}
