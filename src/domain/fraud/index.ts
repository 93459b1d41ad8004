import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { BlocklistEntry, FraudRule } from './fraud.entities';
import { FraudService } from './fraud.service';

declare module '../core' {
  interface Core {
    fraud: FraudService;
  }
}

/** The fraud area: what the registries gather from it (src/areas.ts lists it). */
export const fraudArea = defineArea<Core>({
  name: 'fraud',
  entities: [FraudRule, BlocklistEntry],
  services: {
    fraud: () => new FraudService(),
  },
});
