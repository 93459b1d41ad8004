import { defineArea } from '../shared/area';
import { BlocklistEntry, FraudRule } from './fraud.entities';

/** The fraud area: what the registries gather from it (src/areas.ts lists it). */
export const fraudArea = defineArea({
  name: 'fraud',
  entities: [FraudRule, BlocklistEntry],
});
