import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { Mode } from '../../domain/identity/identity.entities';
import { Wallet as WalletRow, WalletEntry as WalletEntryRow } from '../../domain/wallets/wallet.service';
import { WalletBalanceChange } from '../../domain/events/pubsub';
import { Money } from '../shared/money.type';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';

@ObjectType({ description: "A merchant wallet: the business's balance in one currency and mode", implements: Node })
export class Wallet extends Node {
  @Field() currency: string;
  @Field(() => Money) balance: Money;
  @Field(() => Mode) mode: Mode;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: WalletRow): Wallet {
    return Object.assign(new Wallet(), {
      id: row.id, currency: row.currency, balance: Money.of(row.balance, row.currency),
      mode: row.livemode ? Mode.LIVE : Mode.TEST, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'One ledger entry of a wallet' })
export class WalletEntry {
  @Field(() => ID) id: string;
  @Field(() => ID) transactionId: string;
  @Field({ description: 'What moved the money, e.g. sandbox_funding' }) kind: string;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field(() => Money, { description: 'Positive credits the wallet, negative debits it' }) amount: Money;
  @Field(() => Money, { nullable: true }) balanceAfter: Money | null;
  @Field() createdAt: Date;

  static from({ entry, transaction }: WalletEntryRow): WalletEntry {
    return Object.assign(new WalletEntry(), {
      id: entry.seq, transactionId: transaction.id, kind: transaction.kind, description: transaction.description,
      amount: Money.of(entry.amount, entry.currency),
      balanceAfter: entry.balanceAfter === null ? null : Money.of(entry.balanceAfter, entry.currency),
      createdAt: entry.createdAt,
    });
  }
}

@ObjectType()
export class WalletEntryConnection extends Connection(WalletEntry, 'WalletEntry') {}

@ObjectType({ description: "A change of one of the subscriber's wallet balances" })
export class WalletBalanceUpdate {
  @Field(() => ID) walletId: string;
  @Field(() => Mode) mode: Mode;
  @Field(() => Money) balance: Money;
  @Field(() => Money) change: Money;
  @Field(() => ID) journalTransactionId: string;
  @Field() occurredAt: Date;

  static from(message: WalletBalanceChange): WalletBalanceUpdate {
    return Object.assign(new WalletBalanceUpdate(), {
      walletId: message.walletId,
      mode: message.livemode ? Mode.LIVE : Mode.TEST,
      balance: Money.of(BigInt(message.balanceMinor), message.currency),
      change: Money.of(BigInt(message.changeMinor), message.currency),
      journalTransactionId: message.journalTransactionId,
      occurredAt: new Date(message.occurredAt),
    });
  }
}

@InputType()
export class SandboxFundWalletInput {
  @Field({ description: 'Currency code, e.g. USD' }) currency: string;
  @Field({ description: 'Decimal amount in major units, e.g. "100.00"' }) amount: string;
}
