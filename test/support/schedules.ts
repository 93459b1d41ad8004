import { TestMerchant, TestServer } from './harness';
import { PAYOUTS, apiKey, dashboard } from './payouts';
import { PATIENCE_MS, sleep } from './wait';

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

/**
 * How long one run of an advance may take on a busy machine (a load average of 12 on two cores made
 * them about 2.5 s each): an advance's deadline is derived from its count of runs, never a fixed time.
 */
export const RUN_PATIENCE_MS = 10_000;

/** The final deadline of an advance of `runsDue` runs. */
export const advancePatienceMs = (runsDue: number) => PATIENCE_MS + runsDue * RUN_PATIENCE_MS;

/**
 * Waits until the clock's advance `id` has completed (its runs fire in background jobs), and answers
 * the clock then. It gives up when no run has fired for PATIENCE_MS (stuck, not slow), or at the
 * final deadline: `timeoutMs` when given, else one sized by the advance's runs due.
 */
export async function advanceCompleted(
  server: TestServer,
  merchant: TestMerchant,
  id: string,
  timeoutMs?: number,
): Promise<ClockState> {
  const startedAt = Date.now();
  const finished = (state: ClockState) => state.advance?.id !== id || state.advance.status === 'completed';
  let clock = await readClock(server, merchant);
  let runsFired = clock.advance?.runsFired;
  let progressAt = startedAt;
  while (!finished(clock)) {
    const deadlineMs = timeoutMs ?? advancePatienceMs(clock.advance?.runsDue ?? 0);
    if (Date.now() - startedAt > deadlineMs)
      throw new Error(`advance ${id} did not complete within ${deadlineMs} ms: ${JSON.stringify(clock)}`);
    if (timeoutMs === undefined && Date.now() - progressAt > PATIENCE_MS)
      throw new Error(`advance ${id} fired no run for ${PATIENCE_MS} ms: ${JSON.stringify(clock)}`);
    await sleep(50);
    clock = await readClock(server, merchant);
    if (clock.advance?.runsFired !== runsFired) [runsFired, progressAt] = [clock.advance?.runsFired, Date.now()];
  }
  if (clock.advance?.id !== id) throw new Error(`advance ${id} is no longer the clock's: ${JSON.stringify(clock)}`);
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
