import { defineProviderKind } from '../kind';
import type { CardAcquirer } from './port';
import { SandboxCardAcquirer } from './sandbox';
import { stripeWebhooks } from './stripe-webhooks';

declare module '../registry' {
  interface ProviderChoice {
    'card-acquirer': { test: CardAcquirer; live: CardAcquirer | null };
  }
}

/** Card acquiring: the sandbox acquirer (Stripe's test cards, docs/sandbox.md) in test mode, none in live yet. */
export const cardAcquirerKind = defineProviderKind({
  kind: 'card-acquirer',
  missing:
    'No card acquirer is configured for live mode, so live card payments cannot be taken; use test credentials in the sandbox',
  create: ({ secrets }) => ({ test: new SandboxCardAcquirer(secrets.masterKey), live: null }),
  webhooks: ({ config }) => (config.stripeWebhookSecret ? [stripeWebhooks(config.stripeWebhookSecret)] : []),
});
