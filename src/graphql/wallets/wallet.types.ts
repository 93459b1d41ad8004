import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { Mode } from '../../domain/shared/modes';
import { Wallet as WalletRow, WalletEntry as WalletEntryRow } from '../../domain/wallets';
import { WalletBalanceChange } from '../../domain/ledger';
import { Money } from '../shared/money.type';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';

@ObjectType({ description: "A merchant wallet: the business's balance in one currency and mode", implements: Node })
export class Wallet extends Node {
  @Field({ description: 'ISO 4217 currency code, upper case (USDC for the stablecoin; REST answers it lower case)' })
  currency: string;
  @Field(() => Money, { description: "The wallet's balance, in its currency" }) balance: Money;
  @Field(() => Mode, { description: 'The mode the wallet belongs to: TEST or LIVE' }) mode: Mode;
  @Field({ description: 'When the wallet was opened (ISO 8601, UTC)' }) createdAt: Date;
  @Field({
    description:
      "When the balance last changed (ISO 8601, UTC); in sandboxFundWallet's answer, the value read before that funding",
  })
  updatedAt: Date;

  static from(row: WalletRow): Wallet {
    return Object.assign(new Wallet(), {
      id: row.id,
      currency: row.currency,
      balance: Money.of(row.balance, row.currency),
      mode: row.livemode ? Mode.LIVE : Mode.TEST,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'One ledger entry of a wallet' })
export class WalletEntry {
  @Field(() => ID, {
    description: "The entry's ledger sequence number, its place in the wallet's statement (not a Node id)",
  })
  id: string;
  @Field(() => ID, { description: 'The id of the journal transaction the entry belongs to' }) transactionId: string;
  @Field({ description: 'What moved the money, e.g. sandbox_funding' }) kind: string;
  @Field(() => String, {
    nullable: true,
    description: "The transaction's description, e.g. Sandbox wallet funding (null when it has none)",
  })
  description: string | null;
  @Field(() => Money, { description: 'Positive credits the wallet, negative debits it' }) amount: Money;
  @Field(() => Money, {
    nullable: true,
    description: "The wallet's balance right after this entry (null if the ledger did not record it)",
  })
  balanceAfter: Money | null;
  @Field({ description: 'When the entry was posted (ISO 8601, UTC)' }) createdAt: Date;

  static from({ entry, transaction }: WalletEntryRow): WalletEntry {
    return Object.assign(new WalletEntry(), {
      id: entry.seq,
      transactionId: transaction.id,
      kind: transaction.kind,
      description: transaction.description,
      amount: Money.of(entry.amount, entry.currency),
      balanceAfter: entry.balanceAfter === null ? null : Money.of(entry.balanceAfter, entry.currency),
      createdAt: entry.createdAt,
    });
  }
}

@ObjectType({ description: "A page of a wallet's ledger entries, newest first" })
export class WalletEntryConnection extends Connection(WalletEntry, 'WalletEntry') {}

@ObjectType({ description: "A change of one of the subscriber's wallet balances" })
export class WalletBalanceUpdate {
  @Field(() => ID, { description: 'The id of the wallet whose balance changed' }) walletId: string;
  @Field(() => Mode, { description: "The wallet's mode: TEST or LIVE" }) mode: Mode;
  @Field(() => Money, { description: "The wallet's new balance" }) balance: Money;
  @Field(() => Money, {
    description: 'The signed amount of the change: positive credits the wallet, negative debits it',
  })
  change: Money;
  @Field(() => ID, { description: 'The id of the journal transaction that changed the balance' })
  journalTransactionId: string;
  @Field({ description: 'When that transaction was recorded (ISO 8601, UTC)' }) occurredAt: Date;

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

@InputType({ description: 'The play money to add to the wallet of a currency (created if needed)' })
export class SandboxFundWalletInput {
  @Field({ description: 'Currency code, e.g. USD' }) currency: string;
  @Field({ description: 'Decimal amount in major units, e.g. "100.00"' }) amount: string;
}
