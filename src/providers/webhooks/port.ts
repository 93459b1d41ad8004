import type { IncomingHttpHeaders } from 'node:http';
import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';

/** An event a provider sent, once its signature is checked: in the provider's own words. */
export interface VerifiedProviderEvent {
  /** The provider's id of the event (Stripe's `evt_…`): a repeat carries the same one. */
  id: string;
  /** The provider's event type (`payment_intent.succeeded`). */
  type: string;
  /** Sent by the provider's live account (Stripe's `livemode`), not its test one. */
  livemode: boolean;
  /** The whole event as the provider sent it, parsed. */
  payload: Record<string, unknown>;
}

/** What a provider's signature check answers: the event, or why the request is refused (400, nothing stored). */
export type WebhookVerification =
  { verified: true; event: VerifiedProviderEvent } | { verified: false; reason: string };

/** A stored event as its handler gets it. */
export interface ReceivedProviderEvent extends VerifiedProviderEvent {
  provider: string;
  receivedAt: Date;
}

/** What a handler applies an event with: the inbox's transaction, the domain's services, and the event. */
export interface ProviderEventApplication {
  /**
   * The transaction the inbox marks the event applied in: a handler writes through it (or through
   * services given it), so its writes and the mark commit together or not at all. A system context
   * of no business: the handler finds the business the event concerns (a payment's, by its id).
   */
  tx: RequestContext;
  core: Core;
  event: ReceivedProviderEvent;
}

/**
 * What a handler did: applied the event (nothing to say), or found it concerns nothing of Tessera's
 * (a dispute of a payment another system made on the same account): the inbox marks it ignored and
 * the job logs `ignored`, the reason.
 */
export type ProviderEventHandled = void | { ignored: string };

/**
 * Applies one type of a provider's events. It runs at least once and its writes commit at most
 * once (with the inbox's mark); a throw rolls them back, and the job queue runs it again later.
 */
export type ProviderEventHandler = (application: ProviderEventApplication) => Promise<ProviderEventHandled>;

/**
 * A provider's inbound webhooks, contributed by its kind (`webhooks` in src/providers/kind.ts):
 * `POST /providers/<provider>/webhooks` checks the signature with `verify`, stores the event once
 * (the inbox, src/domain/provider-events) and applies it with the handler of its type; an event of
 * a type without a handler is stored and marked ignored.
 */
export interface InboundWebhooks {
  /** The provider's name, as the URL spells it (`stripe`: `/providers/stripe/webhooks`). */
  provider: string;
  /**
   * Checks the request's signature over the exact bytes received (never a re-serialised body) and
   * reads the event. Refuses rather than throws.
   */
  verify(rawBody: Buffer, headers: IncomingHttpHeaders): WebhookVerification;
  /** The handlers, by the provider's event type. */
  handlers: Readonly<Record<string, ProviderEventHandler>>;
}
