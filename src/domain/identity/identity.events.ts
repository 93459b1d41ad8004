import { TesseraPubSub, Topic } from '../events/pubsub';
import { AccessRevocation } from './identity.topics';
import { RequestContext } from '../shared/context';

/**
 * What identity announces: access taken away (a regenerated key, a member removed or given another
 * role), published once the change has committed so that every process closes the open sockets of
 * that credential or member at once instead of at their next re-check.
 */
export const credentialRevoked = (businessId: string, credentialId: string): AccessRevocation => ({
  kind: 'credential',
  businessId,
  credentialId,
});

export const memberRevoked = (businessId: string, userId: string): AccessRevocation => ({
  kind: 'member',
  businessId,
  userId,
});

export function announceRevocation(tx: RequestContext, pubSub: TesseraPubSub, revocation: AccessRevocation): void {
  tx.afterCommit(() => pubSub.publish(Topic.ACCESS_REVOKED, revocation));
}
