import { Field, ObjectType } from 'type-graphql';
import { toMajor } from '../../domain/shared/money';

/** Money as the dashboard sees it: decimal major units, exact minor units (as a string), ISO code. */
@ObjectType({ description: 'An amount of money' })
export class Money {
  @Field({ description: 'Decimal amount in major units, e.g. "100.50"' }) amount: string;
  @Field({ description: 'Exact amount in minor units (cents), as a string' }) amountMinor: string;
  @Field({ description: 'ISO 4217 code (USDC for the stablecoin), upper case' }) currency: string;

  static of(minor: bigint, currency: string): Money {
    return Object.assign(new Money(), { amount: toMajor(minor, currency), amountMinor: minor.toString(), currency });
  }
}
