import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '../shared/money';
import { MutableTenantEntity } from '../shared/tenancy';

/** DRAFT: editable, not payable. OPEN: sent, payable through its checkout session. PAID. VOID: withdrawn. */
export enum InvoiceStatus {
  DRAFT = 'DRAFT',
  OPEN = 'OPEN',
  PAID = 'PAID',
  VOID = 'VOID',
}

/** One line of an invoice; amounts in minor units (as strings, so the JSON column keeps them exact). */
export interface InvoiceItem {
  description: string;
  quantity: number;
  unitAmountMinor: string;
  amountMinor: string;
}

@Entity('invoices')
@Index('uq_invoices_business_mode_number', ['businessId', 'livemode', 'number'], { unique: true })
@Index('ix_invoices_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class Invoice extends MutableTenantEntity {
  /** Sequential per business and mode, from 1, without gaps. */
  @Column('integer') number: number;
  /** `INV-000001`. */
  @Column('text') invoiceNumber: string;

  @Column({ type: 'enum', enum: InvoiceStatus, enumName: 'invoice_status', default: InvoiceStatus.DRAFT })
  status: InvoiceStatus;

  @Column('text') customerEmail: string;
  @Column('text') currency: string;
  @Column('jsonb') items: InvoiceItem[];
  @Column('bigint', { transformer: bigintTransformer }) totalAmount: bigint;
  @Column('text', { nullable: true }) description: string | null;
  /** Calendar date (YYYY-MM-DD). */
  @Column('date', { nullable: true }) dueDate: string | null;
  @Column('text', { nullable: true }) successUrl: string | null;
  @Column('jsonb', { nullable: true }) metadata: Record<string, unknown> | null;

  @Column('uuid', { nullable: true }) checkoutSessionId: string | null;
  /** The hosted page where the customer pays (once sent). */
  @Column('text', { nullable: true }) checkoutUrl: string | null;
  @Column('uuid', { nullable: true }) paymentId: string | null;

  @Column('timestamptz', { nullable: true }) finalizedAt: Date | null;
  @Column('timestamptz', { nullable: true }) paidAt: Date | null;
  @Column('timestamptz', { nullable: true }) voidedAt: Date | null;
}

/** The last invoice number given out per business and mode (incremented under its row lock). */
@Entity('invoice_counters')
export class InvoiceCounter {
  @PrimaryColumn('uuid') businessId: string;
  @PrimaryColumn('boolean') livemode: boolean;
  @Column('integer') lastNumber: number;
}
