import { Bind, DeliveryRoute, EndpointRegistryRoute, RoutedEvent } from './delivery-route';
import { treasuryEndpointsRoute } from './treasury-webhook-endpoint.route';
import { WebhookDeliveryTarget } from './webhook-delivery.entity';
import { ALL_EVENTS, WebhookEndpointStatus } from './webhook-endpoint.entity';
import { merchantEndpointsRoute } from './webhook-endpoint.route';
import { webhookUrlRoute } from './webhook-url.route';

/** Every rule of where a recorded event goes; an area with targets of its own adds its route here. */
export const DELIVERY_ROUTES: readonly DeliveryRoute[] = [
  webhookUrlRoute,
  merchantEndpointsRoute,
  treasuryEndpointsRoute,
];

/** The routes an event of `type` takes: the one that owns its type's prefix alone, else every route. */
export function routesOf(type: string): readonly DeliveryRoute[] {
  const owner = DELIVERY_ROUTES.find((route) => route.owns !== undefined && type.startsWith(route.owns));
  return owner ? [owner] : DELIVERY_ROUTES;
}

/** The endpoints of the registries routed to, in one scan: each registry's endpoints with its own condition. */
function endpointsSql(event: RoutedEvent, registries: readonly EndpointRegistryRoute[], bind: Bind): string {
  const admitted = registries
    .map((route) => `(e.registry = ${bind(route.registry)}${route.admits ? ` AND ${route.admits(bind)}` : ''})`)
    .join(' OR ');
  const partners = registries.filter((route) => route.forPartner).map((route) => route.registry);
  const partnerId =
    partners.length > 0
      ? `CASE WHEN e.registry = ANY(${bind(partners)}::webhook_registry[]) THEN e.business_id END`
      : 'NULL::uuid';
  return `
    SELECT ${bind(WebhookDeliveryTarget.ENDPOINT)}::text AS target, e.url, e.id AS endpoint_id, ${partnerId} AS partner_id,
           1 AS rank, e.created_at
      FROM webhook_endpoints e
     WHERE e.business_id = ${event.businessId} AND e.livemode = ${event.livemode} AND e.status = ${bind(WebhookEndpointStatus.ENABLED)}
       AND e.events && ARRAY[${event.type}, ${bind(ALL_EVENTS)}]::text[] AND (${admitted})`;
}

/**
 * The targets of an event as one SELECT (its routes' targets, UNION ALL), for the event's own
 * statement; the event's business, mode and type are bound once, by the first route that reads them.
 */
export function targetsSql(event: { businessId: string; livemode: boolean; type: string }, bind: Bind): string {
  const once = (value: unknown) => {
    let placeholder: string | undefined;
    return () => (placeholder ??= bind(value));
  };
  const businessId = once(event.businessId);
  const livemode = once(event.livemode);
  const type = once(event.type);
  const routed: RoutedEvent = {
    get businessId() {
      return businessId();
    },
    get livemode() {
      return livemode();
    },
    get type() {
      return type();
    },
  };
  const routes = routesOf(event.type);
  const registries = routes.filter((route): route is EndpointRegistryRoute => 'registry' in route);
  return [
    ...routes.flatMap((route) => ('targets' in route ? [route.targets(routed, bind)] : [])),
    ...(registries.length > 0 ? [endpointsSql(routed, registries, bind)] : []),
  ].join('\n  UNION ALL');
}
