import { defineArea } from '../shared/area';
import { V1ApiKey, V1Payment } from './v1.entities';
import { V1Transfer } from './v1-transfer.entity';

/** The v1 area: what the registries gather from it (src/areas.ts lists it). */
export const v1Area = defineArea({
  name: 'v1',
  entities: [V1ApiKey, V1Payment, V1Transfer],
});
