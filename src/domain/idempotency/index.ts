import { defineArea } from '../shared/area';
import { IdempotencyRecord } from './idempotency.entity';

/** The idempotency area: what the registries gather from it (src/areas.ts lists it). */
export const idempotencyArea = defineArea({
  name: 'idempotency',
  entities: [IdempotencyRecord],
});
