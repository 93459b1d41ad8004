import { Column, Entity, Index } from 'typeorm';
import { bigintTransformer } from '../shared/money';
import { MutableTenantEntity, TenantEntity } from '../shared/tenancy';

export enum FraudRuleType {
  /** Block when the card's issuing country is one of `countries`. */
  CARD_COUNTRY = 'card_country',
  /** Block when the card's BIN starts with one of `bins`. */
  CARD_BIN = 'card_bin',
  /** Block when the payer's email domain (or a subdomain of it) is one of `domains`. */
  EMAIL_DOMAIN = 'email_domain',
  /** Block a charge in `currency` above `amount` minor units. */
  AMOUNT_ABOVE = 'amount_above',
  /** Block a card that made more than `maxAttemptsPerHour` attempts at this business and mode in the last hour. */
  VELOCITY_CARD = 'velocity_card',
}

/** A merchant's screening rule for one mode; checked before the acquirer sees a charge. */
@Entity('fraud_rules')
@Index('ix_fraud_rules_business_mode', ['businessId', 'livemode', 'createdAt'])
export class FraudRule extends MutableTenantEntity {
  @Column('text') type: FraudRuleType;
  @Column('boolean', { default: true }) enabled: boolean;

  /** Countries (ISO alpha-2, upper case), BIN prefixes or email domains (lower case), by type. */
  @Column('text', { array: true, default: '{}' }) values: string[];

  /** amount_above: the threshold in minor units of `currency` (upper case). */
  @Column('bigint', { nullable: true, transformer: bigintTransformer }) amount: bigint | null;
  @Column('text', { nullable: true }) currency: string | null;

  /** velocity_card: attempts allowed per card fingerprint per hour. */
  @Column('integer', { nullable: true }) maxAttemptsPerHour: number | null;

  @Column('text', { nullable: true }) description: string | null;
}

export enum BlocklistEntryType {
  EMAIL = 'email',
  CARD_FINGERPRINT = 'card_fingerprint',
  IP = 'ip',
}

/** A payer email, card fingerprint or IP address whose charges this business refuses in one mode. */
@Entity('fraud_blocklist')
@Index('uq_fraud_blocklist_value', ['businessId', 'livemode', 'type', 'value'], { unique: true })
@Index('ix_fraud_blocklist_created', ['businessId', 'livemode', 'createdAt'])
export class BlocklistEntry extends TenantEntity {
  @Column('text') type: BlocklistEntryType;
  /** Normalized: emails lower case, IPs in canonical form. */
  @Column('text') value: string;

  @Column('text', { nullable: true }) description: string | null;
}
