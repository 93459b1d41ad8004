import { RequestContext } from '../shared/context';
import { notFound } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { Business } from './identity.entities';

/**
 * The context's business, locked for the rest of the transaction (`FOR UPDATE`): what a change of
 * the business's own settings or keys serialises on; NOT_FOUND when it does not exist.
 */
export async function lockOwnBusiness(tx: RequestContext): Promise<Business> {
  const businessId = tx.requireBusiness();
  const business = isUuid(businessId)
    ? await tx.repo(Business).findOne({ where: { id: businessId }, lock: { mode: 'pessimistic_write' } })
    : null;
  if (!business) throw notFound('Business');
  return business;
}
