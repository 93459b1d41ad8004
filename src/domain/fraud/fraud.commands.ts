import { BlocklistEntryType, FraudRuleType } from './fraud.entities';

/** The parameters of a rule, by its type (the discriminant): exactly those of that type. */
export type FraudRuleParameters =
  | { type: FraudRuleType.CARD_COUNTRY; /** ISO alpha-2, upper case, without duplicates. */ countries: string[] }
  | { type: FraudRuleType.CARD_BIN; /** Prefixes of 1 to 6 digits. */ bins: string[] }
  | { type: FraudRuleType.EMAIL_DOMAIN; /** Lower case, without a leading `@`. */ domains: string[] }
  | { type: FraudRuleType.AMOUNT_ABOVE; /** Minor units of `currency`. */ amount: bigint; currency: string }
  | { type: FraudRuleType.VELOCITY_CARD; maxAttemptsPerHour: number };

/** Creates a rule: its type's parameters, enabled (default true) and an optional description. */
export type CreateFraudRuleCommand = FraudRuleParameters & { enabled?: boolean; description?: string | null };

/**
 * A decimal major-unit amount as sent ("250.50" or 250.5), already known to be a plain decimal.
 * An update carries it as such because only the stored rule knows the currency to convert it with.
 */
export type DecimalAmount = string | number;

/**
 * Changes a rule: any of enabled, description and the parameters of the rule's own type. The
 * command carries whichever parameter fields were sent; the service refuses those of another type
 * and converts `amount` with the stored (or newly sent) currency. A rule's type never changes:
 * `type`, when sent, must name the rule's own type.
 */
export interface UpdateFraudRuleCommand {
  id: string;
  type?: string;
  enabled?: boolean;
  description?: string | null;
  countries?: string[];
  bins?: string[];
  domains?: string[];
  amount?: DecimalAmount;
  currency?: string;
  maxAttemptsPerHour?: number;
}

/** Blocks an email, card fingerprint or IP address (the value as sent; the service normalizes it by type). */
export interface AddBlocklistEntryCommand {
  type: BlocklistEntryType;
  value: string;
  description?: string | null;
}

export interface BlocklistFilters {
  type?: BlocklistEntryType;
}
