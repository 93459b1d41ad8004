import { WebhookRegistry } from './webhook-endpoint.entity';

/** An event being recorded, as a route reads it: placeholders of its business, mode and type, bound on first use. */
export interface RoutedEvent {
  readonly businessId: string;
  readonly livemode: string;
  readonly type: string;
}

/** Binds a value as a parameter of the statement and answers its placeholder (`$7`). */
export type Bind = (value: unknown) => string;

/**
 * One rule of where an event goes, declared by the area that owns it and applied by the router
 * (delivery-routing.ts) inside the event's own statement: targets of its own, or the endpoints of
 * one registry.
 */
export type DeliveryRoute = OwnTargetsRoute | EndpointRegistryRoute;

interface RouteBase {
  /** Events whose type starts with this prefix go by this route alone: a product's own events (`treasury.`). */
  readonly owns?: string;
}

/**
 * Targets of the route's own: a SELECT of them for the event, in the columns `target` (text),
 * `url` (text), `endpoint_id` (uuid), `partner_id` (uuid: the treasury partner), `rank` (integer)
 * and `created_at` (timestamptz). The deliveries are written ordered by rank, created_at and
 * endpoint_id across every route; registered endpoints rank 1.
 */
export interface OwnTargetsRoute extends RouteBase {
  targets(event: RoutedEvent, bind: Bind): string;
}

/**
 * The enabled endpoints of one registry subscribed to the event's type (or "*"), of the event's
 * business and mode. Every registry's endpoints are read in one scan of the endpoints table.
 */
export interface EndpointRegistryRoute extends RouteBase {
  readonly registry: WebhookRegistry;
  /** A further condition on the endpoint `e` (its product enabled), or none. */
  admits?(bind: Bind): string;
  /** Its deliveries are for a partner (the endpoint's business), signed only with the endpoint's own secret. */
  readonly forPartner?: boolean;
}
