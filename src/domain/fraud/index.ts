import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { BlocklistEntry, FraudRule } from './fraud.entities';
import { FraudService } from './fraud.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export type {
  AddBlocklistEntryCommand,
  BlocklistFilters,
  CreateFraudRuleCommand,
  FraudRuleParameters,
  UpdateFraudRuleCommand,
} from './fraud.commands';
export { BlocklistEntry, BlocklistEntryType, FraudRule, FraudRuleType } from './fraud.entities';

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
