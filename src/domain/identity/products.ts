import { RequestContext } from '../shared/context';
import { forbidden } from '../shared/errors';
import { Business } from './identity.entities';

/**
 * The treasury product's switch is a column of the business row (design section 4): a treasury
 * partner is a business with it on. Treasury's operations and the webhooks of its registry both
 * start here, so the check lives with the row, below both areas.
 */
export async function requireTreasuryPartner(ctx: RequestContext): Promise<Business> {
  const business = await ctx.repo(Business).findOne({ where: { id: ctx.requireBusiness() } });
  if (!business?.treasuryEnabled) throw forbidden('The treasury product is not enabled for this business');
  return business;
}
