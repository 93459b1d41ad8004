import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Mode } from '../../domain/identity/identity.entities';
import { Invoice as InvoiceRow, InvoiceStatus } from '../../domain/invoices/invoice.entity';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';
import { IdInput } from '../shared/payload';

registerEnumType(InvoiceStatus, { name: 'InvoiceStatus', description: 'DRAFT, OPEN (sent, payable), PAID or VOID' });

@ObjectType()
export class InvoiceItem {
  @Field() description: string;
  @Field(() => Int) quantity: number;
  @Field(() => Money) unitAmount: Money;
  @Field(() => Money) amount: Money;
}

@ObjectType({ description: 'An invoice, paid through its checkout session once sent', implements: Node })
export class Invoice extends Node {
  @Field({ description: 'INV-000001, sequential per business and mode' }) invoiceNumber: string;
  @Field(() => InvoiceStatus) status: InvoiceStatus;
  @Field() customerEmail: string;
  @Field(() => [InvoiceItem]) items: InvoiceItem[];
  @Field(() => Money) totalAmount: Money;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) dueDate: string | null;
  @Field(() => String, { nullable: true }) successUrl: string | null;
  @Field(() => ID, { nullable: true }) checkoutSessionId: string | null;
  @Field(() => String, { nullable: true, description: 'Where the customer pays (once sent)' }) checkoutUrl: string | null;
  @Field(() => ID, { nullable: true }) paymentId: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata: Record<string, unknown> | null;
  @Field(() => Mode) mode: Mode;
  @Field(() => Date, { nullable: true }) finalizedAt: Date | null;
  @Field(() => Date, { nullable: true }) paidAt: Date | null;
  @Field(() => Date, { nullable: true }) voidedAt: Date | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: InvoiceRow): Invoice {
    return Object.assign(new Invoice(), {
      id: row.id, invoiceNumber: row.invoiceNumber, status: row.status, customerEmail: row.customerEmail,
      items: row.items.map((item) => Object.assign(new InvoiceItem(), {
        description: item.description, quantity: item.quantity,
        unitAmount: Money.of(BigInt(item.unitAmountMinor), row.currency), amount: Money.of(BigInt(item.amountMinor), row.currency),
      })),
      totalAmount: Money.of(row.totalAmount, row.currency), description: row.description, dueDate: row.dueDate, successUrl: row.successUrl,
      checkoutSessionId: row.checkoutSessionId, checkoutUrl: row.checkoutUrl, paymentId: row.paymentId, metadata: row.metadata,
      mode: row.livemode ? Mode.LIVE : Mode.TEST, finalizedAt: row.finalizedAt, paidAt: row.paidAt, voidedAt: row.voidedAt,
      createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class InvoiceConnection extends Connection(Invoice, 'Invoice') {}

@InputType()
export class InvoiceItemInput {
  @Field() description: string;
  @Field(() => Int, { nullable: true, description: '1 when omitted' }) quantity?: number;
  @Field({ description: 'Decimal amount in major units' }) unitAmount: string;
}

@InputType({ description: 'Send either items or amount' })
export class CreateInvoiceInput {
  @Field() customerEmail: string;
  @Field() currency: string;
  @Field(() => [InvoiceItemInput], { nullable: true }) items?: InvoiceItemInput[];
  @Field({ nullable: true, description: 'A single amount instead of items' }) amount?: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true, description: 'YYYY-MM-DD, today or later' }) dueDate?: string;
  @Field({ nullable: true }) successUrl?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

export const FinalizeInvoiceInput = IdInput('FinalizeInvoice', 'The DRAFT invoice to send');
export type FinalizeInvoiceInput = InstanceType<typeof FinalizeInvoiceInput>;
export const VoidInvoiceInput = IdInput('VoidInvoice', 'The DRAFT or OPEN invoice to withdraw');
export type VoidInvoiceInput = InstanceType<typeof VoidInvoiceInput>;
