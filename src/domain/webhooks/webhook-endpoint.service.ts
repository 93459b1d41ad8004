import { RequestContext, WRITE_ROLES } from '../shared/context';
import { parseInput } from '../../wire/validation';
import { WebhookEndpoint, WebhookRegistry } from './webhook-endpoint.entity';
import { WebhookEndpointRegistry, endpointCreateSchema, endpointUpdateSchema } from './webhook-endpoint-registry';

/**
 * The merchant's registry of webhook endpoints (`/webhook-endpoints`), one list per business and
 * mode. Its deliveries are signed with the business's API secret of the mode.
 */
export class WebhookEndpointService extends WebhookEndpointRegistry {
  protected readonly registry = WebhookRegistry.MERCHANT;
  protected readonly updateSchema = endpointUpdateSchema;

  async create(ctx: RequestContext, input: unknown): Promise<WebhookEndpoint> {
    await this.authorize(ctx, WRITE_ROLES);
    return this.insert(ctx, parseInput(endpointCreateSchema, input ?? {}));
  }
}
