import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { BlocklistEntry as BlocklistEntryRow, FraudRule as FraudRuleRow, FraudRuleType } from '../../domain/fraud/fraud.entities';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';
import { IdInput, Payload } from '../shared/payload';
import { FraudUserErrors } from './fraud.errors';

@ObjectType({ description: 'A screening rule of the business in one mode; only the fields of its type are set', implements: Node })
export class FraudRule extends Node {
  @Field({ description: 'One of card_country, card_bin, email_domain, amount_above or velocity_card' }) type: string;
  @Field() enabled: boolean;
  @Field(() => [String], { nullable: true, description: 'For card_country: the blocked issuing countries' }) countries: string[] | null;
  @Field(() => [String], { nullable: true, description: 'For card_bin: the blocked BIN prefixes' }) bins: string[] | null;
  @Field(() => [String], { nullable: true, description: 'For email_domain: the blocked domains (and their subdomains)' }) domains: string[] | null;
  @Field(() => Money, { nullable: true, description: 'For amount_above: charges above this amount in its currency are blocked' }) amount: Money | null;
  @Field(() => Int, { nullable: true, description: 'For velocity_card: the attempts allowed per card per hour' }) maxAttemptsPerHour: number | null;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: FraudRuleRow): FraudRule {
    const listed = (type: FraudRuleType) => (row.type === type ? row.values : null);
    return Object.assign(new FraudRule(), {
      id: row.id, type: row.type, enabled: row.enabled,
      countries: listed(FraudRuleType.CARD_COUNTRY), bins: listed(FraudRuleType.CARD_BIN), domains: listed(FraudRuleType.EMAIL_DOMAIN),
      amount: row.amount !== null && row.currency ? Money.of(row.amount, row.currency) : null,
      maxAttemptsPerHour: row.maxAttemptsPerHour, description: row.description, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'An email, card fingerprint or IP address whose charges are refused', implements: Node })
export class BlocklistEntry extends Node {
  @Field({ description: 'One of email, card_fingerprint or ip' }) type: string;
  @Field() value: string;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field() createdAt: Date;

  static from(row: BlocklistEntryRow): BlocklistEntry {
    return Object.assign(new BlocklistEntry(), { id: row.id, type: row.type, value: row.value, description: row.description, createdAt: row.createdAt });
  }
}

@ObjectType()
export class FraudRuleConnection extends Connection(FraudRule, 'FraudRule') {}

@ObjectType()
export class BlocklistEntryConnection extends Connection(BlocklistEntry, 'BlocklistEntry') {}

@InputType({ description: 'type plus the parameters of that type' })
export class CreateFraudRuleInput {
  @Field({ description: 'One of card_country, card_bin, email_domain, amount_above or velocity_card' }) type: string;
  @Field({ nullable: true, description: 'Default true' }) enabled?: boolean;
  @Field({ nullable: true }) description?: string;
  @Field(() => [String], { nullable: true }) countries?: string[];
  @Field(() => [String], { nullable: true }) bins?: string[];
  @Field(() => [String], { nullable: true }) domains?: string[];
  @Field({ nullable: true, description: 'amount_above: decimal amount in major units, e.g. "500.00"' }) amount?: string;
  @Field({ nullable: true, description: 'amount_above: currency code' }) currency?: string;
  @Field(() => Int, { nullable: true }) maxAttemptsPerHour?: number;
}

@InputType({ description: "Fields to change; the parameters must be those of the rule's type" })
export class UpdateFraudRuleInput {
  @Field(() => ID, { description: 'The rule to change' }) id: string;
  @Field({ nullable: true }) enabled?: boolean;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [String], { nullable: true }) countries?: string[];
  @Field(() => [String], { nullable: true }) bins?: string[];
  @Field(() => [String], { nullable: true }) domains?: string[];
  @Field({ nullable: true }) amount?: string;
  @Field({ nullable: true }) currency?: string;
  @Field(() => Int, { nullable: true }) maxAttemptsPerHour?: number;
}

@InputType()
export class AddBlocklistEntryInput {
  @Field({ description: 'One of email, card_fingerprint or ip' }) type: string;
  @Field() value: string;
  @Field({ nullable: true }) description?: string;
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
export const AddBlocklistEntryPayload = Payload('AddBlocklistEntry', 'blocklistEntry', () => BlocklistEntry, FraudUserErrors);
export type AddBlocklistEntryPayload = InstanceType<typeof AddBlocklistEntryPayload>;
export const RemoveBlocklistEntryPayload = Payload('RemoveBlocklistEntry', 'blocklistEntry', () => BlocklistEntry, FraudUserErrors);
export type RemoveBlocklistEntryPayload = InstanceType<typeof RemoveBlocklistEntryPayload>;
