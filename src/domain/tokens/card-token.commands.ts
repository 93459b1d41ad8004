import { CardDetails } from '../shared/card';

/** Tokenises a card typed in the browser (vaulted with the acquirer; the number is never stored). */
export interface CreateCardTokenCommand {
  card: CardDetails;
}
