import { Bind, DeliveryRoute, RoutedEvent } from './delivery-route';
import { treasuryEndpointsRoute } from './treasury-webhook-endpoint.route';
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
  return routesOf(event.type)
    .map((route) => route.targets(routed, bind))
    .join('\n  UNION ALL');
}
