import type { VerifiedProviderEvent } from '../../providers/webhooks/port';

/** A provider's event whose signature its webhooks' `verify` accepted. */
export interface ReceiveProviderEventCommand {
  provider: string;
  event: VerifiedProviderEvent;
}

/** The application of one stored event (the inbox's job). */
export interface ApplyProviderEventCommand {
  /** The stored event's row id. */
  id: string;
}
