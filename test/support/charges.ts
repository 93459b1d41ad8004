import { Payment } from '../../src/domain/payments/payment.entities';
import { chargeCommandOf, chargeRequestSchema } from '../../src/wire/payments';
import { parseInput } from '../../src/wire/validation';
import { TestMerchant, TestServer } from './harness';

/** Sandbox cards used by the customer, token and fraud tests (Luhn-valid; see docs/sandbox.md). */
export const CARDS = {
  /** US, approved. */
  visa: '4242424242424242',
  /** GB (BIN table prefix 400000826), approved. */
  gb: '4000008260000000',
  /** NG (prefix 400000566), approved. */
  ng: '4000005660000002',
  /** Mastercard, BIN 555555, US, approved. */
  mastercard: '5555555555554444',
};

export const card = (number = CARDS.visa) => ({
  number,
  expiryMonth: 12,
  expiryYear: new Date().getUTCFullYear() + 2,
  cvv: '123',
});

/** Server-to-server charging is off by default; the tests turn it on as an operator would. */
export async function enableCharging(server: TestServer, merchant: TestMerchant, livemode = false): Promise<void> {
  await server.runtime.dataSource.query(
    `INSERT INTO business_settings (business_id, livemode, server_to_server_charging) VALUES ($1, $2, true)
     ON CONFLICT (business_id, livemode) DO UPDATE SET server_to_server_charging = true`,
    [merchant.businessId, livemode],
  );
}

/**
 * The documented charge, straight to ChargeService with the merchant's credential and a chosen
 * client address (the body is checked and mapped to the command as the faces do).
 */
export async function charge(
  server: TestServer,
  apiKey: string,
  body: Record<string, unknown>,
  ipAddress: string | null = null,
): Promise<Payment> {
  const { core } = server.runtime;
  const ctx = await core.identity.auth.authenticate(core.anonymousContext({ requestId: null, clientIp: ipAddress }), {
    apiKey,
  });
  return core.charges.charge(ctx, chargeCommandOf(parseInput(chargeRequestSchema, body)));
}

export async function eventsOf(server: TestServer, businessId: string): Promise<Array<{ type: string; data: any }>> {
  return server.runtime.dataSource.query(
    `SELECT type, data FROM events WHERE business_id = $1 ORDER BY created_at, id`,
    [businessId],
  );
}
