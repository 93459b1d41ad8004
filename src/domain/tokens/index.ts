import { defineArea } from '../shared/area';
import { CardToken } from './card-token.entity';

/** The tokens area: what the registries gather from it (src/areas.ts lists it). */
export const tokensArea = defineArea({
  name: 'tokens',
  entities: [CardToken],
});
