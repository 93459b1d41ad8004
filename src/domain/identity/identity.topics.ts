import { internalTopic } from '../events/pubsub';

/** The identity area's topic, as named on the wire. */
export const IdentityTopic = {
  /** Access taken away from a credential or a member: open sockets it concerns must close. */
  ACCESS_REVOKED: internalTopic('ACCESS_REVOKED'),
} as const;

/**
 * Access taken away after a commit: an API credential's key was regenerated (its key and the
 * tokens made from it are dead), or a member's role in a business changed or the member was
 * removed. Every process closes the sockets it concerns.
 */
export type AccessRevocation =
  | { kind: 'credential'; businessId: string; credentialId: string }
  | { kind: 'member'; businessId: string; userId: string };

declare module '../events/pubsub' {
  interface TopicPayloads {
    [IdentityTopic.ACCESS_REVOKED]: [AccessRevocation];
  }
}
