import { TestMerchant, TestServer } from './harness';
import { PAYOUTS, apiKey, dashboard } from './payouts';
import { waitFor } from './wait';

export const SCHEDULES = `${PAYOUTS}/schedules`;
export const CLOCK = '/api/v1/business/sandbox/clock';
export const PIN = '246810';

/** Sets the business's payout PIN as its OWNER does (dashboard). */
export async function setPin(server: TestServer, merchant: TestMerchant, pin = PIN) {
  const response = await server.request('PUT', `${PAYOUTS}/pin`, { headers: dashboard(merchant), body: { pin } });
  if (response.status !== 200) throw new Error(`setting the PIN failed: ${JSON.stringify(response.body)}`);
}

/** A WEEKLY SINGLE schedule's body starting `startInMs` from the wall clock (1 hour by default). */
export const scheduleBody = (recipientId: string, overrides: Record<string, unknown> = {}, startInMs = 3_600_000) => ({
  name: 'Supplier retainer',
  cadence: 'WEEKLY',
  startAt: new Date(Date.now() + startInMs).toISOString(),
  payloadKind: 'SINGLE',
  payload: { recipientId, amount: '10.00', currency: 'USD' },
  maxRunAmountUsd: '1000.00',
  pin: PIN,
  ...overrides,
});

export const createSchedule = (
  server: TestServer,
  merchant: TestMerchant,
  body: Record<string, unknown>,
  headers: Record<string, string> = apiKey(merchant),
) => server.request('POST', SCHEDULES, { headers, body });

/** An advance of the test clock as the clock's answers show it (docs/sandbox.md, Test clock). */
export interface ClockAdvance {
  id: string;
  seconds: number;
  status: 'running' | 'completed';
  runsDue: number;
  payoutsDue: number;
  runsFired: number;
  untilAt: string;
  createdAt: string;
  completedAt: string | null;
}
export interface ClockState {
  now: string;
  offsetSeconds: number;
  advance: ClockAdvance | null;
}

export async function readClock(server: TestServer, merchant: TestMerchant): Promise<ClockState> {
  const response = await server.request('GET', CLOCK, { headers: apiKey(merchant) });
  if (response.status !== 200) throw new Error(`reading the clock failed: ${JSON.stringify(response.body)}`);
  return response.body.data as ClockState;
}

/** Waits until the clock's advance `id` has completed (its runs fire in background jobs), and answers the clock then. */
export async function advanceCompleted(
  server: TestServer,
  merchant: TestMerchant,
  id: string,
  timeoutMs?: number,
): Promise<ClockState> {
  const clock = await waitFor(
    () => readClock(server, merchant),
    (state) => state.advance?.id !== id || state.advance.status === 'completed',
    timeoutMs,
  );
  if (clock.advance?.id !== id || clock.advance.status !== 'completed')
    throw new Error(`advance ${id} did not complete: ${JSON.stringify(clock)}`);
  return clock;
}

/** Advances the business's test clock and waits for what fell due to have fired. */
export async function advanceClock(server: TestServer, merchant: TestMerchant, seconds: number): Promise<ClockState> {
  const response = await server.request('POST', `${CLOCK}/advance`, { headers: apiKey(merchant), body: { seconds } });
  if (response.status !== 200) throw new Error(`advancing the clock failed: ${JSON.stringify(response.body)}`);
  const started = response.body.data as ClockState;
  return started.advance?.status === 'running' ? advanceCompleted(server, merchant, started.advance.id) : started;
}

export const DAY = 86_400;
