import { RequestContext, WRITE_ROLES } from '../shared/context';
import { WebhookEndpoint, WebhookRegistry } from './webhook-endpoint.entity';
import { WebhookEndpointRegistry } from './webhook-endpoint-registry';
import { CreateEndpoint, UpdateEndpoint } from './webhooks.commands';

/**
 * The merchant's registry of webhook endpoints (`/webhook-endpoints`), one list per business and
 * mode. Its deliveries are signed with the business's API secret of the mode.
 */
export class WebhookEndpointService extends WebhookEndpointRegistry {
  protected readonly registry = WebhookRegistry.MERCHANT;

  async create(ctx: RequestContext, command: CreateEndpoint): Promise<WebhookEndpoint> {
    await this.authorize(ctx, WRITE_ROLES);
    return this.insert(ctx, command);
  }

  override async update(ctx: RequestContext, id: string, changes: UpdateEndpoint): Promise<WebhookEndpoint> {
    return super.update(ctx, id, changes);
  }
}
