import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { SanctionsService } from './sanctions.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export { SanctionsService } from './sanctions.service';
export { SanctionsListRow, SanctionsMatchRow } from '../../providers/screening/lists/sanctions.entities';
export type { ScreenedRequest } from '../../providers/screening/port';

declare module '../core' {
  interface Core {
    sanctions: SanctionsService;
  }
}

/**
 * The operator's view of sanctions screening: the loaded official lists and the recorded matches
 * (GraphQL's operator fields). The lists, their loading and the matching itself are the screening
 * provider's (src/providers/screening/lists/, whose entities src/db/entities.ts gathers); the
 * operator's commands are the CLI kernel's (`tessera sanctions`).
 */
export const sanctionsArea = defineArea<Core>({
  name: 'sanctions',
  entities: [],
  services: {
    sanctions: () => new SanctionsService(),
  },
});
