import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { V1ApiKey } from './v1-key.entity';
import { OperatorToken } from './operator-token.entity';
import { OperatorTokenService } from './operator-token.service';
import { ApiCredential, Business, Membership, User } from './identity.entities';
import { TeamInvitation } from './team-invitation.entity';
import { PendingSignUp } from './pending-sign-up.entity';
import { IdentityService } from './identity.service';
import { TokenSigner } from './tokens';
import { SignUpService } from './sign-up.service';
import { TeamInvitationService } from './team-invitation.service';
import { V1KeyService } from './v1-key.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export { BusinessDirectory } from './business-directory';
export { hintOf, isPublishableKey } from './credentials';
export type { OperatorBusinessUpdate } from './identity.commands';
export { ApiCredential, Business, Membership, User } from './identity.entities';
export { publishableKeyRefused } from './identity.service';
export { OperatorToken } from './operator-token.entity';
export { OperatorTokenService, operatorTokenRefused } from './operator-token.service';
export type { IssuedOperatorToken } from './operator-token.service';
export { IdentityTopic } from './identity.topics';
export type { AccessRevocation } from './identity.topics';
export type { ProductSettings } from './product-settings';
export { requireTreasuryPartner } from './products';
export { SignUpService } from './sign-up.service';
export { TeamInvitation, TeamInvitationStatus } from './team-invitation.entity';
export { V1ApiKey } from './v1-key.entity';
export { invalidV1Key, V1KeyService } from './v1-key.service';
export type { IssuedV1Key } from './v1-key.service';

declare module '../core' {
  interface Core {
    identity: IdentityService;
    signUps: SignUpService;
    teamInvitations: TeamInvitationService;
    /** The alternate surface's keys (design section 11): issued per business and mode, hashed and sealed. */
    v1Keys: V1KeyService;
    /** The platform operator's tokens for GraphQL's operator fields, issued by the CLI, kept as hashes. */
    operatorTokens: OperatorTokenService;
  }
}

/** The identity area: what the registries gather from it (src/areas.ts lists it). */
export const identityArea = defineArea<Core>({
  name: 'identity',
  entities: [User, Business, Membership, TeamInvitation, PendingSignUp, ApiCredential, V1ApiKey, OperatorToken],
  services: {
    identity: (core) =>
      new IdentityService({
        tokens: new TokenSigner(core.secrets.jwtSecret, core.config.jwtTtlSeconds),
        secretBox: core.secretBox,
        pubSub: core.pubSub,
        bus: core.bus,
        webhookTargets: core.webhookTargets,
        // Each product area contributes its settings (its manifest's `productSettings`), so identity names no product.
        productSettings: core.contributions('productSettings'),
        lockout: {
          maxFailures: core.config.signInMaxFailures,
          windowSeconds: core.config.signInFailureWindowSeconds,
          lockoutSeconds: core.config.signInLockoutSeconds,
        },
      }),
    signUps: (core) => new SignUpService(core.identity.businesses, core.mailer),
    teamInvitations: () => new TeamInvitationService(),
    v1Keys: (core) => new V1KeyService(core.secretBox),
    operatorTokens: () => new OperatorTokenService(),
  },
});
