import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { IDEMPOTENCY_ERRORS } from './idempotency.errors';
import { IdempotencyRecord } from './idempotency.entity';
import { IdempotencyService } from './idempotency.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export { IdempotencyClaim, madeEarlier } from './idempotency-claim';
export { IdempotencyErrorCode } from './idempotency.errors';
export { IdempotencyService } from './idempotency.service';

declare module '../core' {
  interface Core {
    idempotency: IdempotencyService;
  }
}

/** The idempotency area: what the registries gather from it (src/areas.ts lists it). */
export const idempotencyArea = defineArea<Core>({
  name: 'idempotency',
  entities: [IdempotencyRecord],
  services: {
    idempotency: (core) => new IdempotencyService(core.config.idempotencyTtlHours, core.secretBox),
  },
  errors: IDEMPOTENCY_ERRORS,
});
