import { RequestContext, inTransaction } from '../shared/context';
import { VaultedCard } from '../../providers/card-acquirer';
import { Customer, PaymentMethod } from './customer.entities';

/** Customer profiles of a business and mode, and the cards saved for them. */
export class CustomerService {
  /**
   * Saves a vaulted card for the customer with this email, creating the profile when there is
   * none; the first card saved becomes the default.
   */
  async saveCard(ctx: RequestContext, input: { email: string; card: VaultedCard }): Promise<{ customer: Customer; paymentMethod: PaymentMethod }> {
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      await tx.em.query(
        `INSERT INTO customers (business_id, livemode, email) VALUES ($1, $2, $3) ON CONFLICT (business_id, livemode, email) DO NOTHING`,
        [businessId, tx.livemode, input.email],
      );
      const customer = await tx.repo(Customer).createQueryBuilder('customer').setLock('pessimistic_write')
        .where('customer.business_id = :businessId AND customer.livemode = :livemode AND customer.email = :email', { businessId, livemode: tx.livemode, email: input.email })
        .getOneOrFail();
      const { card } = input;
      const paymentMethod = await tx.repo(PaymentMethod).save(tx.repo(PaymentMethod).create({
        businessId, livemode: tx.livemode, customerId: customer.id, providerRef: card.providerRef, brand: card.brand, last4: card.last4,
        expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, fingerprint: card.fingerprint, country: card.country,
      }));
      if (!customer.defaultPaymentMethodId) {
        customer.defaultPaymentMethodId = paymentMethod.id;
        await tx.repo(Customer).save(customer);
      }
      return { customer, paymentMethod };
    });
  }
}

/** A saved card as the acquirer knows it, to charge it again. */
export const vaultedCardOf = (method: PaymentMethod): VaultedCard => ({
  providerRef: method.providerRef, brand: method.brand, last4: method.last4, bin: '', expiryMonth: method.expiryMonth,
  expiryYear: method.expiryYear, fingerprint: method.fingerprint, country: method.country,
});
