import { StripeCardAcquirer } from '../../src/providers/card-acquirer/stripe';
import { paymentId, stripeClient, stripeTestSettings, testPaymentMethod } from './support';

/**
 * Issue 29's opt-in suite, the acquirer's flows: src/providers/card-acquirer/stripe.ts against
 * Stripe's real test mode, with Stripe's test PaymentMethods (no raw card data needed). The same
 * flows as test/stripe-acquirer.test.ts and test/stripe-refunds.test.ts run against the local fake.
 */
describe("Stripe's test mode: the card acquirer", () => {
  const settings = stripeTestSettings();
  const acquirer = new StripeCardAcquirer(settings);
  const stripe = stripeClient(settings);
  const charge = (providerRef: string, last4: string, returnUrl?: string) => {
    const id = paymentId();
    return {
      id,
      request: {
        paymentId: id,
        amount: 2550n,
        currency: 'usd',
        card: testPaymentMethod(providerRef, last4),
        returnUrl,
      },
    };
  };

  test('pm_card_visa (4242): approved, one PaymentIntent keyed by the payment id; asking again is the same intent', async () => {
    const { id, request } = charge('pm_card_visa', '4242');
    const first = await acquirer.authorize(request);
    expect(first).toEqual({ outcome: 'approved', reference: expect.stringMatching(/^pi_/) });
    const intent = await stripe.paymentIntents.retrieve((first as { reference: string }).reference);
    expect(intent).toMatchObject({
      status: 'succeeded',
      amount: 2550,
      currency: 'usd',
      metadata: { tessera_payment_id: id },
    });
    expect(await acquirer.authorize(request)).toEqual(first);
    expect(await acquirer.paymentIdOfIntent(intent.id)).toBe(id);
  });

  test.each([
    ['pm_card_visa_chargeDeclined', '0002', 'card_declined'],
    ['pm_card_visa_chargeDeclinedInsufficientFunds', '9995', 'insufficient_funds'],
  ])('%s (%s): declined with %s', async (method, last4, reason) => {
    const { request } = charge(method, last4);
    expect(await acquirer.authorize(request)).toMatchObject({
      outcome: 'declined',
      reason,
      reference: expect.stringMatching(/^pi_/),
    });
  });

  test("pm_card_threeDSecure2Required (3220): authentication required, with Stripe's page to send the payer to", async () => {
    const { request } = charge('pm_card_threeDSecure2Required', '3220', 'https://tessera.example/3ds/return/x');
    const answer = await acquirer.authorize(request);
    expect(answer).toMatchObject({
      outcome: 'authentication_required',
      reference: expect.stringMatching(/^pi_/),
      redirectUrl: expect.stringMatching(/^https:\/\/[a-z.]*stripe\.com\//),
    });
  });

  test('a partial refund: a Refund of the intent keyed by the refund id, asking again the same refund', async () => {
    const { request } = charge('pm_card_visa', '4242');
    const approved = (await acquirer.authorize(request)) as { reference: string };
    const refund = { refundId: paymentId(), paymentReference: approved.reference, amount: 1000n, currency: 'usd' };
    const first = await acquirer.refund(refund);
    expect(first.reference).toMatch(/^re_/);
    expect(await acquirer.refund(refund)).toEqual(first);
    expect(await stripe.refunds.retrieve(first.reference!)).toMatchObject({
      amount: 1000,
      payment_intent: approved.reference,
      metadata: { tessera_refund_id: refund.refundId },
    });
  });
});
