import { RequestContext } from '../shared/context';
import { SecretBox } from '../shared/crypto';
import { TesseraPubSub } from '../events/pubsub';
import { WebhookTargetPolicy } from '../webhooks/url-policy';
import { setServerToServerCharging } from '../payments/payments.settings';
import { AuthService, SignInLockout } from './auth.service';
import { BusinessService } from './business.service';
import { CredentialService } from './credential.service';
import { OperatorAccount, OperatorBusinessUpdate, PresentedCredentials, TokenExchange } from './identity.commands';
import { TeamService } from './team.service';
import { TokenSigner } from './tokens';

export { publishableKeyRefused } from './auth.service';
export type { SignInLockout, TokenResponse } from './auth.service';
export type { IssuedCredentials } from './credential.service';

export interface IdentityOptions {
  tokens: TokenSigner;
  secretBox: SecretBox;
  pubSub: TesseraPubSub;
  /** Provisions what a business needs in a mode (its default wallet) once that mode is enabled. */
  onModeEnabled: (ctx: RequestContext) => Promise<void>;
  webhookTargets: WebhookTargetPolicy;
  lockout: SignInLockout;
}

/**
 * Identity as `core.identity`: one service per aggregate (auth, credentials, team, businesses),
 * and, as single lines, the entry points the rest of the server reaches identity through (the
 * HTTP credential parser, the GraphQL socket and loaders, the operator's first start, the test
 * harness). No product's settings live here: each area keeps its own in `<area>.settings.ts`.
 */
export class IdentityService {
  readonly auth: AuthService;
  readonly credentials: CredentialService;
  readonly team: TeamService;
  readonly businesses: BusinessService;

  constructor(options: IdentityOptions) {
    this.auth = new AuthService(options.tokens, options.secretBox, options.lockout);
    this.credentials = new CredentialService(options.secretBox, options.pubSub, options.onModeEnabled);
    this.team = new TeamService(options.pubSub);
    this.businesses = new BusinessService(this.auth, this.credentials, options.webhookTargets);
  }

  authenticate(base: RequestContext, presented: PresentedCredentials) { return this.auth.authenticate(base, presented); }
  authenticatePublishableKey(base: RequestContext, publishableKey: string) { return this.auth.authenticatePublishableKey(base, publishableKey); }
  credentialExpiresAt(presented: PresentedCredentials) { return this.auth.credentialExpiresAt(presented); }
  exchangeToken(base: RequestContext, exchange: TokenExchange) { return this.auth.exchangeToken(base, exchange); }
  apiSecretOf(ctx: RequestContext) { return this.credentials.apiSecretOf(ctx); }
  createBusinessWithOwnerAccount(base: RequestContext, account: OperatorAccount) { return this.businesses.createBusinessWithOwnerAccount(base, account); }
  updateBusinessAsOperator(ctx: RequestContext, update: OperatorBusinessUpdate) { return this.businesses.updateAsOperator(ctx, update); }
  usersByIds(ctx: RequestContext, ids: string[]) { return this.team.usersByIds(ctx, ids); }
  businessesByIds(ctx: RequestContext, ids: string[]) { return this.team.businessesByIds(ctx, ids); }
  membershipsOfUsers(ctx: RequestContext, userIds: string[]) { return this.team.membershipsOfUsers(ctx, userIds); }
  /** @deprecated The payments product's switch: call `setServerToServerCharging` of src/domain/payments/payments.settings.ts. */
  setServerToServerCharging(ctx: RequestContext, enabled: boolean) { return setServerToServerCharging(ctx, enabled); }
}
