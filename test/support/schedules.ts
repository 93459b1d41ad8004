import { TestMerchant, TestServer } from './harness';
import { PAYOUTS, apiKey, dashboard } from './payouts';

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

export const createSchedule = (server: TestServer, merchant: TestMerchant, body: Record<string, unknown>, headers: Record<string, string> = apiKey(merchant)) =>
  server.request('POST', SCHEDULES, { headers, body });

export async function advanceClock(server: TestServer, merchant: TestMerchant, seconds: number) {
  const response = await server.request('POST', `${CLOCK}/advance`, { headers: apiKey(merchant), body: { seconds } });
  if (response.status !== 200) throw new Error(`advancing the clock failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { now: string; offsetSeconds: number };
}

export const DAY = 86_400;
