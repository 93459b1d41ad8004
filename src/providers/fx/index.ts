import { defineProviderKind } from '../kind';
import { yellowCardConnection } from '../yellowcard/connection';
import { YellowCardFx } from '../yellowcard/fx';
import type { FxProvider } from './port';
import { ReachableFx } from './reachable';
import { SandboxFxProvider } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    fx: { test: FxProvider; live: FxProvider | null };
  }
}

const reachable = new WeakMap<FxProvider, ReachableFx>();

/** Exchange rates and conversion fees: the sandbox's fixed rates in test mode; Yellow Card's rates in live mode when YELLOWCARD_API_KEY is set (docs/live.md), none otherwise. */
export const fxKind = defineProviderKind({
  kind: 'fx',
  missing: 'No exchange-rate provider is configured for live mode; use test credentials in the sandbox',
  create: ({ config }) => ({
    test: new SandboxFxProvider(),
    live: config.yellowcard ? new YellowCardFx(yellowCardConnection(config.yellowcard)) : null,
  }),
  // The domain calls it through ReachableFx: one that does not answer is SERVICE_UNAVAILABLE.
  guard: (provider) => {
    let guarded = reachable.get(provider);
    if (!guarded) reachable.set(provider, (guarded = new ReachableFx(provider)));
    return guarded;
  },
});
