import { TesseraPubSub } from '../events/pubsub';
import { AccessRevocation, IdentityTopic } from './identity.topics';
import { RequestContext } from '../shared/context';
import { Mode } from '../shared/modes';

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
  tx.afterCommit(() => pubSub.publish(IdentityTopic.ACCESS_REVOKED, revocation));
}

/**
 * A business has credentials in a mode for the first time (`identity.mode-enabled`, in the
 * transaction that issued them, told in a context of that business and mode): what the business
 * needs in the mode (its default wallet) is provisioned there.
 */
export interface ModeEnabled {
  businessId: string;
  mode: Mode;
}

declare module '../shared/domain-events' {
  interface DomainEvents {
    'identity.mode-enabled': ModeEnabled;
  }
}
