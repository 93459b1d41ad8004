import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { SandboxClock, SandboxClockAdvance } from './sandbox-clock.entity';
import { sandboxJobs } from './sandbox.jobs';
import { ClockService } from './clock.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export { clockLockKey, ClockService } from './clock.service';
export type { AdvanceClockCommand, ClockState } from './clock.service';
export { ClockAdvanceStatus, SandboxClockAdvance } from './sandbox-clock.entity';
export { ClockAdvancing, ClockSlice } from './sandbox.events';
export type { AdvanceWindow, DueWork } from './sandbox.events';

declare module '../core' {
  interface Core {
    /** The sandbox's test clock: "now" for a business in test mode (the schedule runner, collection expiry). */
    sandboxClock: ClockService;
  }
}

/** The sandbox area: what the registries gather from it (src/areas.ts lists it). */
export const sandboxArea = defineArea<Core>({
  name: 'sandbox',
  entities: [SandboxClock, SandboxClockAdvance],
  services: {
    sandboxClock: (core) => new ClockService(core.bus),
  },
  jobs: (core) => sandboxJobs(core.sandboxClock),
});
