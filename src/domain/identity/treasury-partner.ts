import { RequestContext } from '../shared/context';
import { forbidden } from '../shared/errors';
import { Business } from './identity.entities';

/**
 * A treasury partner is a business with the treasury product enabled (design section 4); every
 * treasury operation starts here. Operators switch the product with `tessera business update`.
 */
export async function requireTreasuryPartner(ctx: RequestContext): Promise<Business> {
  const business = await ctx.repo(Business).findOne({ where: { id: ctx.requireBusiness() } });
  if (!business?.treasuryEnabled) throw forbidden('The treasury product is not enabled for this business');
  return business;
}
