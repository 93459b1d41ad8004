import { Column, Entity, Index } from 'typeorm';
import { bigintTransformer } from '../shared/money';
import { MutableTenantEntity } from '../shared/tenancy';
import { RecurringInterval } from '../checkout';

/** A reusable public URL (`/pay/<token>`) for a fixed amount; each visit opens a new checkout session. */
@Entity('payment_links')
@Index('uq_payment_links_token', ['token'], { unique: true })
@Index('ix_payment_links_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class PaymentLink extends MutableTenantEntity {
  /** `plink_test_…` / `plink_live_…`: the last path segment of the link's url. */
  @Column('text') token: string;

  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;

  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;
  @Column('text') currency: string;

  @Column('boolean', { default: true }) active: boolean;

  /** Payers may turn their payment into a recurring gift at this interval. */
  @Column('boolean', { default: false }) allowRecurring: boolean;
  @Column('text', { nullable: true }) recurringInterval: RecurringInterval | null;

  @Column('text', { nullable: true }) successUrl: string | null;
  @Column('jsonb', { nullable: true }) metadata: Record<string, unknown> | null;

  @Column('timestamptz', { nullable: true }) deactivatedAt: Date | null;
}
