import { defineProviderKind } from '../kind';
import type { CardAcquirer } from './port';
import { SandboxCardAcquirer } from './sandbox';
import { StripeCardAcquirer } from './stripe';
import { stripeWebhooks } from './stripe-webhooks';

declare module '../registry' {
  interface ProviderChoice {
    'card-acquirer': { test: CardAcquirer; live: CardAcquirer | null };
  }
}

/**
 * Card acquiring: the sandbox acquirer (Stripe's test cards, docs/sandbox.md) in test mode, unless
 * TEST_MODE_CARD_ACQUIRER=stripe sends test mode to a Stripe test account; Stripe in live mode when
 * STRIPE_SECRET_KEY is set (docs/live.md), none otherwise.
 */
export const cardAcquirerKind = defineProviderKind({
  kind: 'card-acquirer',
  missing:
    'No card acquirer is configured for live mode, so live card payments cannot be taken; use test credentials in the sandbox',
  create: ({ config, secrets }) => {
    const stripe = config.stripe ? new StripeCardAcquirer(config.stripe) : null;
    return {
      test: config.testModeCardAcquirer === 'stripe' && stripe ? stripe : new SandboxCardAcquirer(secrets.masterKey),
      live: stripe,
    };
  },
  webhooks: ({ config }) => (config.stripe ? [stripeWebhooks(config.stripe)] : []),
  // Each mode's acquirer once (Stripe serves both when TEST_MODE_CARD_ACQUIRER=stripe); the sandbox keeps no balance.
  reconciliation: ({ live, test }) =>
    [...new Set([live, test])]
      .filter((acquirer): acquirer is CardAcquirer => acquirer !== null)
      .map((acquirer) => ({
        provider: acquirer.name,
        compares: 'card-acquirer' as const,
        balanceEntries: (period) => acquirer.balanceTransactions(period),
      })),
});
