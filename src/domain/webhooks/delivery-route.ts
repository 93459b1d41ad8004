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
 * (delivery-routing.ts) inside the event's own statement. `targets` is a SELECT of the rule's
 * targets for the event, in the columns `target` (text), `url` (text), `endpoint_id` (uuid),
 * `partner_id` (uuid: the treasury partner), `rank` (integer) and `created_at` (timestamptz); the
 * deliveries are written ordered by rank, created_at and endpoint_id across every rule.
 */
export interface DeliveryRoute {
  /** Events whose type starts with this prefix go by this rule alone: a product's own events (`treasury.`). */
  readonly owns?: string;
  targets(event: RoutedEvent, bind: Bind): string;
}
