import { DomainEventBus } from '../shared/domain-events';
import { SecretBox } from '../shared/crypto';
import { TesseraPubSub } from '../events/pubsub';
import { WebhookTargetPolicy } from '../shared/url-policy';
import { AuthService, SignInLockout } from './auth.service';
import { BusinessService } from './business.service';
import { CredentialService } from './credential.service';
import { TeamService } from './team.service';
import { TokenSigner } from './tokens';
import { OperatorBusinessUpdate } from './identity.commands';
import { ProductSettings } from './product-settings';

export { publishableKeyRefused } from './auth.service';
export type { SignInLockout, TokenResponse } from './auth.service';
export type { IssuedCredentials } from './credential.service';

export interface IdentityOptions {
  tokens: TokenSigner;
  secretBox: SecretBox;
  pubSub: TesseraPubSub;
  bus: DomainEventBus;
  webhookTargets: WebhookTargetPolicy;
  /** What `tessera business update` may change besides identity's own fields, one entry per product. */
  productSettings: ReadonlyArray<ProductSettings<OperatorBusinessUpdate>>;
  lockout: SignInLockout;
}

/**
 * Identity as `core.identity`: one service per aggregate (auth, credentials, team, businesses),
 * each called directly (`core.identity.auth.authenticate`). No product's settings live here: each
 * area keeps its own in `<area>.settings.ts`.
 */
export class IdentityService {
  readonly auth: AuthService;
  readonly credentials: CredentialService;
  readonly team: TeamService;
  readonly businesses: BusinessService;

  constructor(options: IdentityOptions) {
    this.auth = new AuthService(options.tokens, options.secretBox, options.lockout);
    this.credentials = new CredentialService(options.secretBox, options.pubSub, options.bus);
    this.team = new TeamService(options.pubSub);
    this.businesses = new BusinessService(this.auth, this.credentials, options.webhookTargets, options.productSettings);
  }
}
