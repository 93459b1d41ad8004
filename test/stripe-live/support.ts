import crypto from 'node:crypto';
import Stripe from 'stripe';
import { VaultedCard } from '../../src/providers/card-acquirer/port';

/**
 * The opt-in suite's settings (scripts/stripe-live.js starts it only with the key set): Stripe's
 * test mode, reached at STRIPE_TEST_API_BASE (Stripe's own by default).
 */
export function stripeTestSettings(): { secretKey: string; apiBase: string } {
  const secretKey = process.env.STRIPE_TEST_SECRET_KEY;
  if (!secretKey || !/^(sk|rk)_test_/.test(secretKey))
    throw new Error(
      'STRIPE_TEST_SECRET_KEY (a test-mode key) is not set: run this suite with npm run test:stripe-live',
    );
  return { secretKey, apiBase: process.env.STRIPE_TEST_API_BASE ?? 'https://api.stripe.com' };
}

/**
 * A card Stripe already holds, as the vault would keep it: one of Stripe's test PaymentMethods
 * (https://docs.stripe.com/testing#cards), which need no raw card data.
 */
export const testPaymentMethod = (providerRef: string, last4: string): VaultedCard => ({
  providerRef,
  brand: 'visa',
  last4,
  bin: '424242',
  expiryMonth: 12,
  expiryYear: new Date().getUTCFullYear() + 2,
  fingerprint: providerRef,
  country: 'US',
});

/** A Tessera payment id (a UUID): the PaymentIntent's Idempotency-Key and metadata, unique per run. */
export const paymentId = () => crypto.randomUUID();

/** The SDK on the suite's key and API base: what the tests ask Stripe directly. */
export function stripeClient(settings: { secretKey: string; apiBase: string }): Stripe {
  const base = new URL(settings.apiBase);
  return new Stripe(settings.secretKey, {
    host: base.hostname,
    port: base.port ? Number(base.port) : base.protocol === 'http:' ? 80 : 443,
    protocol: base.protocol === 'http:' ? 'http' : 'https',
  });
}
