import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { SandboxClock, SandboxClockAdvance } from './sandbox-clock.entity';
import { sandboxJobs } from './sandbox.jobs';

/** The sandbox area: what the registries gather from it (src/areas.ts lists it). */
export const sandboxArea = defineArea<Core>({
  name: 'sandbox',
  entities: [SandboxClock, SandboxClockAdvance],
  jobs: (core) => sandboxJobs(core.sandboxClock),
});
