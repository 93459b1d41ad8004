import { defineArea } from '../shared/area';
import { V1ApiKey } from './v1-key.entity';
import { ApiCredential, Business, Membership, User } from './identity.entities';
import { TeamInvitation } from './team-invitation.entity';
import { PendingSignUp } from './pending-sign-up.entity';

/** The identity area: what the registries gather from it (src/areas.ts lists it). */
export const identityArea = defineArea({
  name: 'identity',
  entities: [User, Business, Membership, TeamInvitation, PendingSignUp, ApiCredential, V1ApiKey],
});
