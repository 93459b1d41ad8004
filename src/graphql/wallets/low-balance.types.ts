import { Field, InputType, ObjectType } from 'type-graphql';
import { Node } from '../shared/node';
import { toMajor } from '../../domain/shared/money';
import { WalletLowBalanceThreshold as ThresholdRow } from '../../domain/wallets';

@ObjectType({
  description:
    'The low-balance threshold of the wallet in one currency (active business and mode): a debit that takes the balance from at or above it to below it emits wallet.low_balance on /v1; its id is WalletLowBalanceThreshold:<businessId>:<test|live>:<CURRENCY>',
  implements: Node,
})
export class WalletLowBalanceThreshold extends Node {
  @Field({ description: 'Currency code, upper case' }) currency: string;
  @Field({ description: 'Decimal amount in major units, e.g. "100.00"' }) threshold: string;
  @Field({ description: 'When the threshold was last set (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: ThresholdRow): WalletLowBalanceThreshold {
    const id = `WalletLowBalanceThreshold:${row.businessId}:${row.livemode ? 'live' : 'test'}:${row.currency}`;
    return Object.assign(new WalletLowBalanceThreshold(), {
      id,
      currency: row.currency,
      threshold: toMajor(row.threshold, row.currency),
      updatedAt: row.updatedAt,
    });
  }
}

@InputType({ description: 'The low-balance threshold of a currency in the active mode: set it, or null to remove it' })
export class SetWalletLowBalanceThresholdInput {
  @Field({ description: 'Currency code of the wallet, e.g. USD' }) currency: string;
  @Field(() => String, {
    nullable: true,
    description: 'Decimal amount in major units, e.g. "100.00"; null removes the threshold',
  })
  threshold: string | null;
}
