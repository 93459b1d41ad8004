import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { BlocklistEntry as BlocklistEntryRow, FraudRule as FraudRuleRow, FraudRuleType } from '../../domain/fraud';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';
import { IdInput, Payload } from '../shared/payload';
import { FraudUserErrors } from './fraud.errors';

@ObjectType({
  description: 'A screening rule of the business in one mode; only the fields of its type are set',
  implements: Node,
})
export class FraudRule extends Node {
  @Field({ description: 'One of card_country, card_bin, email_domain, amount_above or velocity_card' }) type: string;
  @Field({ description: 'Whether screening applies the rule; a disabled rule is kept but blocks nothing' })
  enabled: boolean;
  @Field(() => [String], { nullable: true, description: 'For card_country: the blocked issuing countries' }) countries:
    string[] | null;
  @Field(() => [String], { nullable: true, description: 'For card_bin: the blocked BIN prefixes' }) bins:
    string[] | null;
  @Field(() => [String], {
    nullable: true,
    description: 'For email_domain: the blocked domains (and their subdomains)',
  })
  domains: string[] | null;
  @Field(() => Money, {
    nullable: true,
    description: 'For amount_above: charges above this amount in its currency are blocked',
  })
  amount: Money | null;
  @Field(() => Int, { nullable: true, description: 'For velocity_card: the attempts allowed per card per hour' })
  maxAttemptsPerHour: number | null;
  @Field(() => String, {
    nullable: true,
    description: "The business's own note on the rule (at most 500 characters); null when none",
  })
  description: string | null;
  @Field({ description: 'When the rule was created (ISO 8601, UTC); rules are screened oldest first' }) createdAt: Date;
  @Field({ description: 'When the rule last changed (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: FraudRuleRow): FraudRule {
    const listed = (type: FraudRuleType) => (row.type === type ? row.values : null);
    return Object.assign(new FraudRule(), {
      id: row.id,
      type: row.type,
      enabled: row.enabled,
      countries: listed(FraudRuleType.CARD_COUNTRY),
      bins: listed(FraudRuleType.CARD_BIN),
      domains: listed(FraudRuleType.EMAIL_DOMAIN),
      amount: row.amount !== null && row.currency ? Money.of(row.amount, row.currency) : null,
      maxAttemptsPerHour: row.maxAttemptsPerHour,
      description: row.description,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'An email, card fingerprint or IP address whose charges are refused', implements: Node })
export class BlocklistEntry extends Node {
  @Field({ description: 'One of email, card_fingerprint or ip' }) type: string;
  @Field({
    description: 'The blocked value: an email (lower case), a card fingerprint, or an IP address in canonical form',
  })
  value: string;
  @Field(() => String, {
    nullable: true,
    description: "The business's own note on the entry (at most 500 characters); null when none",
  })
  description: string | null;
  @Field({ description: 'When the value was blocked (ISO 8601, UTC)' }) createdAt: Date;

  static from(row: BlocklistEntryRow): BlocklistEntry {
    return Object.assign(new BlocklistEntry(), {
      id: row.id,
      type: row.type,
      value: row.value,
      description: row.description,
      createdAt: row.createdAt,
    });
  }
}

@ObjectType({ description: 'A page of fraud rules, in screening order (oldest first)' })
export class FraudRuleConnection extends Connection(FraudRule, 'FraudRule') {}

@ObjectType({ description: 'A page of the block list, newest first' })
export class BlocklistEntryConnection extends Connection(BlocklistEntry, 'BlocklistEntry') {}

@InputType({ description: 'The rule type plus the parameters of that type' })
export class CreateFraudRuleInput {
  @Field({ description: 'One of card_country, card_bin, email_domain, amount_above or velocity_card' }) type: string;
  @Field({ nullable: true, description: 'Default true' }) enabled?: boolean;
  @Field({ nullable: true, description: 'A note on the rule, at most 500 characters' }) description?: string;
  @Field(() => [String], {
    nullable: true,
    description: 'For card_country: ISO 3166-1 alpha-2 country codes such as GB (any letter case), 1 to 500',
  })
  countries?: string[];
  @Field(() => [String], { nullable: true, description: 'For card_bin: BIN prefixes of 1 to 6 digits, 1 to 500' })
  bins?: string[];
  @Field(() => [String], {
    nullable: true,
    description: 'For email_domain: email domains such as example.com (a leading @ is dropped), 1 to 500',
  })
  domains?: string[];
  @Field({ nullable: true, description: 'For amount_above: decimal amount in major units, e.g. "500.00"' })
  amount?: string;
  @Field({
    nullable: true,
    description: 'For amount_above: the currency of amount, a code such as USD (any letter case)',
  })
  currency?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'For velocity_card: charge attempts allowed per card per hour, 1 to 1000',
  })
  maxAttemptsPerHour?: number;
}

@InputType({ description: "Fields to change; the parameters must be those of the rule's type" })
export class UpdateFraudRuleInput {
  @Field(() => ID, { description: 'The rule to change' }) id: string;
  @Field({ nullable: true, description: 'True to apply the rule in screening, false to keep it without effect' })
  enabled?: boolean;
  @Field(() => String, { nullable: true, description: 'The new note, at most 500 characters; null clears it' })
  description?: string | null;
  @Field(() => [String], {
    nullable: true,
    description: 'For a card_country rule: the new list of ISO 3166-1 alpha-2 country codes, 1 to 500',
  })
  countries?: string[];
  @Field(() => [String], {
    nullable: true,
    description: 'For a card_bin rule: the new list of BIN prefixes of 1 to 6 digits, 1 to 500',
  })
  bins?: string[];
  @Field(() => [String], {
    nullable: true,
    description: 'For an email_domain rule: the new list of email domains, 1 to 500',
  })
  domains?: string[];
  @Field({
    nullable: true,
    description: 'For an amount_above rule: the new threshold, a decimal amount in major units such as "500.00"',
  })
  amount?: string;
  @Field({
    nullable: true,
    description: 'For an amount_above rule: the currency of amount, a code such as USD (any letter case)',
  })
  currency?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'For a velocity_card rule: the new limit of charge attempts per card per hour, 1 to 1000',
  })
  maxAttemptsPerHour?: number;
}

@InputType({ description: 'A value to block and what kind of value it is' })
export class AddBlocklistEntryInput {
  @Field({ description: 'One of email, card_fingerprint or ip' }) type: string;
  @Field({
    description:
      "The email, the card's fingerprint (card.fingerprint of a payment) or the IPv4/IPv6 address to block, at most 320 characters",
  })
  value: string;
  @Field({ nullable: true, description: 'A note on the entry, at most 500 characters' }) description?: string;
}

export const DeleteFraudRuleInput = IdInput('DeleteFraudRule', 'The rule to delete');
export type DeleteFraudRuleInput = InstanceType<typeof DeleteFraudRuleInput>;
export const RemoveBlocklistEntryInput = IdInput('RemoveBlocklistEntry', 'The entry to remove from the block list');
export type RemoveBlocklistEntryInput = InstanceType<typeof RemoveBlocklistEntryInput>;

export const CreateFraudRulePayload = Payload('CreateFraudRule', 'fraudRule', () => FraudRule, FraudUserErrors);
export type CreateFraudRulePayload = InstanceType<typeof CreateFraudRulePayload>;
export const UpdateFraudRulePayload = Payload('UpdateFraudRule', 'fraudRule', () => FraudRule, FraudUserErrors);
export type UpdateFraudRulePayload = InstanceType<typeof UpdateFraudRulePayload>;
export const DeleteFraudRulePayload = Payload('DeleteFraudRule', 'fraudRule', () => FraudRule, FraudUserErrors);
export type DeleteFraudRulePayload = InstanceType<typeof DeleteFraudRulePayload>;
export const AddBlocklistEntryPayload = Payload(
  'AddBlocklistEntry',
  'blocklistEntry',
  () => BlocklistEntry,
  FraudUserErrors,
);
export type AddBlocklistEntryPayload = InstanceType<typeof AddBlocklistEntryPayload>;
export const RemoveBlocklistEntryPayload = Payload(
  'RemoveBlocklistEntry',
  'blocklistEntry',
  () => BlocklistEntry,
  FraudUserErrors,
);
export type RemoveBlocklistEntryPayload = InstanceType<typeof RemoveBlocklistEntryPayload>;
