import { Column, Entity, Index } from 'typeorm';
import { MutableTenantEntity } from '../shared/tenancy';

/**
 * A stored customer profile of one business and mode. Paying by email alone does not create one:
 * a profile is created explicitly or when a card is saved for the customer.
 */
@Entity('customers')
@Index('uq_customers_business_mode_email', ['businessId', 'livemode', 'email'], { unique: true })
@Index('ix_customers_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class Customer extends MutableTenantEntity {
  /** Lower-cased. */
  @Column('text') email: string;

  /** The merchant's own id for this customer. */
  @Column('text', { nullable: true }) userId: string | null;

  @Column('text', { nullable: true }) firstName: string | null;
  @Column('text', { nullable: true }) lastName: string | null;
  @Column('text', { nullable: true }) phoneNumber: string | null;

  @Column('uuid', { nullable: true }) defaultPaymentMethodId: string | null;

  /**
   * The card acquirer's own customer (Stripe's `cus_…`), made on the first card saved with an
   * acquirer that keeps cards per customer; null with the sandbox. Not shown on the API faces.
   */
  @Column('text', { nullable: true }) acquirerCustomerRef: string | null;
}

/**
 * A card saved for a customer. The number stays with the acquirer: Tessera keeps the acquirer's
 * reference and what may be shown (brand, last4, expiry) plus a fingerprint.
 */
@Entity('payment_methods')
@Index('ix_payment_methods_customer', ['customerId', 'createdAt'])
export class PaymentMethod extends MutableTenantEntity {
  @Column('uuid') customerId: string;

  @Column('text') providerRef: string;

  @Column('text') brand: string;
  @Column('text') last4: string;
  /** First six digits, for fraud rules by BIN ('' for cards saved before it was kept). */
  @Column('text', { default: '' }) bin: string;
  @Column('smallint') expiryMonth: number;
  @Column('smallint') expiryYear: number;
  @Column('text') fingerprint: string;
  @Column('text') country: string;
}
