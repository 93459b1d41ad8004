import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { CardToken } from './card-token.entity';
import { CardTokenService } from './card-token.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export type { CreateCardTokenCommand } from './card-token.commands';
export { CardToken } from './card-token.entity';
export { CardTokenService, peekCardToken, redeemCardToken } from './card-token.service';

declare module '../core' {
  interface Core {
    cardTokens: CardTokenService;
  }
}

/** The tokens area: what the registries gather from it (src/areas.ts lists it). */
export const tokensArea = defineArea<Core>({
  name: 'tokens',
  entities: [CardToken],
  services: {
    cardTokens: (core) => new CardTokenService((ctx, card) => core.payments.vaultCard(ctx, card)),
  },
});
