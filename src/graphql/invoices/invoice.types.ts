import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Mode } from '../../domain/shared/modes';
import { Invoice as InvoiceRow, InvoiceStatus } from '../../domain/invoices';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';
import { IdInput } from '../shared/payload';

registerEnumType(InvoiceStatus, {
  name: 'InvoiceStatus',
  description: 'DRAFT, OPEN (sent, payable), PAID or VOID',
  valuesConfig: {
    DRAFT: { description: 'Created, not payable yet; finalizeInvoice sends it' },
    OPEN: { description: 'Sent: payable through its checkout session' },
    PAID: { description: 'Its checkout session was paid (paymentId is set); final' },
    VOID: { description: "Withdrawn (a sent invoice's checkout session expires at once); final" },
  },
});

@ObjectType({ description: 'One line of an invoice' })
export class InvoiceItem {
  @Field({ description: 'What the line charges for' }) description: string;
  @Field(() => Int, { description: 'How many units, 1 to 10000' }) quantity: number;
  @Field(() => Money, { description: 'The price of one unit' }) unitAmount: Money;
  @Field(() => Money, { description: 'The line total: quantity times unitAmount' }) amount: Money;
}

@ObjectType({ description: 'An invoice, paid through its checkout session once sent', implements: Node })
export class Invoice extends Node {
  @Field({ description: 'INV-000001, sequential per business and mode' }) invoiceNumber: string;
  @Field(() => InvoiceStatus, { description: 'DRAFT until sent, then OPEN until paid (PAID) or withdrawn (VOID)' })
  status: InvoiceStatus;
  @Field({ description: 'The email of the customer who pays it' }) customerEmail: string;
  @Field(() => [InvoiceItem], { description: 'The lines (a single "Amount due" line when created with amount)' })
  items: InvoiceItem[];
  @Field(() => Money, { description: 'The sum of the lines: what the customer pays' }) totalAmount: Money;
  @Field(() => String, { nullable: true, description: 'Shown with the invoice; null when none' }) description:
    string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) dueDate: string | null;
  @Field(() => String, {
    nullable: true,
    description: "Where the customer lands once paid; null: Tessera's receipt page",
  })
  successUrl: string | null;
  @Field(() => ID, { nullable: true, description: 'The checkout session that pays it; null until sent' })
  checkoutSessionId: string | null;
  @Field(() => String, { nullable: true, description: 'Where the customer pays (once sent)' }) checkoutUrl:
    string | null;
  @Field(() => ID, { nullable: true, description: 'The payment that paid it; null unless PAID' }) paymentId:
    string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Your key-value data as sent; null when none' })
  metadata: Record<string, unknown> | null;
  @Field(() => Mode, { description: 'TEST or LIVE (REST: livemode)' }) mode: Mode;
  @Field(() => Date, { nullable: true, description: 'When it was sent (ISO 8601, UTC); null while DRAFT' })
  finalizedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it was paid (ISO 8601, UTC); null unless PAID' })
  paidAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it was voided (ISO 8601, UTC); null unless VOID' })
  voidedAt: Date | null;
  @Field({ description: 'When it was created (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When it last changed (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: InvoiceRow): Invoice {
    return Object.assign(new Invoice(), {
      id: row.id,
      invoiceNumber: row.invoiceNumber,
      status: row.status,
      customerEmail: row.customerEmail,
      items: row.items.map((item) =>
        Object.assign(new InvoiceItem(), {
          description: item.description,
          quantity: item.quantity,
          unitAmount: Money.of(BigInt(item.unitAmountMinor), row.currency),
          amount: Money.of(BigInt(item.amountMinor), row.currency),
        }),
      ),
      totalAmount: Money.of(row.totalAmount, row.currency),
      description: row.description,
      dueDate: row.dueDate,
      successUrl: row.successUrl,
      checkoutSessionId: row.checkoutSessionId,
      checkoutUrl: row.checkoutUrl,
      paymentId: row.paymentId,
      metadata: row.metadata,
      mode: row.livemode ? Mode.LIVE : Mode.TEST,
      finalizedAt: row.finalizedAt,
      paidAt: row.paidAt,
      voidedAt: row.voidedAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of invoices, newest first' })
export class InvoiceConnection extends Connection(Invoice, 'Invoice') {}

@InputType({ description: 'One invoice line' })
export class InvoiceItemInput {
  @Field({ description: 'What the line charges for (1 to 500 characters)' }) description: string;
  @Field(() => Int, { nullable: true, description: '1 to 10000; 1 when omitted' }) quantity?: number;
  @Field({ description: 'Decimal amount in major units' }) unitAmount: string;
}

@InputType({ description: 'Send either items or amount' })
export class CreateInvoiceInput {
  @Field({ description: 'The email of the customer who pays it' }) customerEmail: string;
  @Field({ description: 'Currency code, any case' }) currency: string;
  @Field(() => [InvoiceItemInput], { nullable: true, description: '1 to 100 lines (or send amount instead)' })
  items?: InvoiceItemInput[];
  @Field({ nullable: true, description: 'A single amount instead of items' }) amount?: string;
  @Field({ nullable: true, description: 'Shown with the invoice (at most 500 characters)' }) description?: string;
  @Field({ nullable: true, description: 'YYYY-MM-DD, today or later' }) dueDate?: string;
  @Field({
    nullable: true,
    description: "Absolute http(s) URL the customer lands on once paid; Tessera's receipt page when omitted",
  })
  successUrl?: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Your key-value data, a JSON object of at most 8 KB' })
  metadata?: Record<string, unknown>;
}

export const FinalizeInvoiceInput = IdInput('FinalizeInvoice', 'The DRAFT invoice to send');
export type FinalizeInvoiceInput = InstanceType<typeof FinalizeInvoiceInput>;
export const VoidInvoiceInput = IdInput('VoidInvoice', 'The DRAFT or OPEN invoice to withdraw');
export type VoidInvoiceInput = InstanceType<typeof VoidInvoiceInput>;
