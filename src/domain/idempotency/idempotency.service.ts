import { DataSource } from 'typeorm';
import { DomainError, ErrorCode } from '../shared/errors';
import { IdempotencyErrorCode } from './idempotency.errors';
import { SecretBox } from '../shared/crypto';
import type { IdempotentResource } from '../shared/context';
import type { MadeResource } from './idempotency-claim';

export type IdempotencyOutcome =
  /** `made`: what an earlier run of the request committed and named, which the operation answers from. */
  | { kind: 'proceed'; recordId: string; made: MadeResource | null }
  | { kind: 'replay'; status: number; body: string; contentType: string | null };

export interface IdempotentRequest {
  scope: string;
  key: string;
  method: string;
  path: string;
  body: string;
}

/**
 * How long a request holding an in-flight key is taken to be alive. After it, a retry may take the
 * key over, but never so as to repeat an effect that may have happened (see `begin`).
 */
export const IN_FLIGHT_LEASE_SECONDS = 300;

/**
 * `Idempotency-Key` on POST: the first response is stored and replayed for the key's lifetime;
 * the same key with a different request is refused, and so is a duplicate while the first runs.
 * The request's transactions enter its claim on the key (IdempotencyClaim), which records in each
 * of them that the request took effect, and what it made.
 */
export class IdempotencyService {
  /**
   * Stored responses are sealed with the master key: some carry credentials shown once (a
   * regenerated key, new live credentials), which must never sit in the database in plain text.
   */
  constructor(
    private readonly ttlHours: number,
    private readonly box: SecretBox,
  ) {}

  /**
   * Reserves the key, or answers from it. A key whose holder outlived its lease (the process died,
   * or is still waiting on something slow) is judged by what the holder committed:
   * - nothing: the key is taken over and the request runs again. The old holder cannot commit
   *   afterwards: its claim needs the record this deletes (IdempotencyClaim.enter);
   * - something, and it named what it made (a payment, a payout, a refund, …: IdempotentResource):
   *   the request runs again and the operation answers from that, as it is now (a charge returns
   *   its payment, a payout creation its payout), never making another;
   * - something unnamed: the outcome cannot be rebuilt, so the request never runs again: 409
   *   IDEMPOTENCY_REQUEST_INTERRUPTED until the key expires (or the holder stores its response).
   */
  async begin(dataSource: DataSource, request: IdempotentRequest): Promise<IdempotencyOutcome> {
    if (request.key.length === 0 || request.key.length > 255) {
      throw new DomainError(ErrorCode.VALIDATION_ERROR, 'Invalid Idempotency-Key', {
        'Idempotency-Key': ['must be between 1 and 255 characters'],
      });
    }
    // Keyed: the body may carry card data, and an unkeyed hash of it could be brute-forced.
    const requestHash = this.box.mac(`${request.method}\n${request.path}\n${request.body}`);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const inserted: Array<{ id: string }> = await dataSource.query(
        `INSERT INTO idempotency_keys (scope, key, method, path, request_hash, state, leased_until, expires_at)
         VALUES ($1, $2, $3, $4, $5, 'in_flight', now() + make_interval(secs => $6), now() + make_interval(hours => $7))
         ON CONFLICT (scope, key) DO NOTHING RETURNING id`,
        [request.scope, request.key, request.method, request.path, requestHash, IN_FLIGHT_LEASE_SECONDS, this.ttlHours],
      );
      if (inserted.length > 0) return { kind: 'proceed', recordId: inserted[0].id, made: null };

      const [existing]: Array<{
        id: string;
        request_hash: string;
        state: string;
        response_status: number | null;
        response_body: string | null;
        response_content_type: string | null;
        expired: boolean;
        lapsed: boolean;
        took_effect: boolean;
        resource_type: IdempotentResource | null;
        resource_id: string | null;
      }> = await dataSource.query(
        `SELECT id, request_hash, state, response_status, response_body, response_content_type, resource_type, resource_id,
                expires_at <= now() AS expired,
                (state = 'in_flight' AND leased_until <= now()) AS lapsed,
                effects_at IS NOT NULL AS took_effect
         FROM idempotency_keys WHERE scope = $1 AND key = $2`,
        [request.scope, request.key],
      );
      if (!existing) continue;
      if (existing.expired) {
        await dataSource.query(`DELETE FROM idempotency_keys WHERE id = $1 AND expires_at <= now()`, [existing.id]);
        continue;
      }
      if (existing.lapsed && !existing.took_effect) {
        // Waits for a transaction of the holder that is entering the claim; if that commits, the
        // record took effect after all and is kept.
        await dataSource.query(
          `DELETE FROM idempotency_keys WHERE id = $1 AND state = 'in_flight' AND effects_at IS NULL AND leased_until <= now()`,
          [existing.id],
        );
        continue;
      }
      if (existing.request_hash !== requestHash) {
        throw new DomainError(
          IdempotencyErrorCode.IDEMPOTENCY_KEY_REUSED,
          'This Idempotency-Key was already used with a different request',
        );
      }
      if (existing.state !== 'in_flight') {
        return {
          kind: 'replay',
          status: existing.response_status ?? 200,
          body: existing.response_body ? this.box.open(existing.response_body) : '',
          contentType: existing.response_content_type,
        };
      }
      if (!existing.lapsed) {
        throw new DomainError(
          IdempotencyErrorCode.IDEMPOTENCY_REQUEST_IN_PROGRESS,
          'A request with this Idempotency-Key is still being processed; retry later',
        );
      }
      if (existing.resource_type && existing.resource_id) {
        const [resumed]: Array<{ id: string }> = await dataSource.query(
          `WITH resumed AS (
             UPDATE idempotency_keys SET leased_until = now() + make_interval(secs => $2)
             WHERE id = $1 AND state = 'in_flight' AND leased_until <= now() RETURNING id)
           SELECT id FROM resumed`,
          [existing.id, IN_FLIGHT_LEASE_SECONDS],
        );
        if (resumed)
          return {
            kind: 'proceed',
            recordId: resumed.id,
            made: { type: existing.resource_type, id: existing.resource_id },
          };
        continue;
      }
      throw new DomainError(
        IdempotencyErrorCode.IDEMPOTENCY_REQUEST_INTERRUPTED,
        'The request with this Idempotency-Key changed data but its response was never stored (it was interrupted, or is still running past its lease); ' +
          'it is never run twice. Look up the result before retrying with a new key',
      );
    }
    throw new DomainError(ErrorCode.CONFLICT, 'Could not reserve the Idempotency-Key; retry');
  }

  async complete(dataSource: DataSource, recordId: string, status: number, body: string, contentType: string | null) {
    await dataSource.query(
      `UPDATE idempotency_keys SET state = 'completed', response_status = $2, response_body = $3,
              response_content_type = $4 WHERE id = $1`,
      [recordId, status, this.box.seal(body), contentType],
    );
  }

  /**
   * A request whose response is not stored (5xx, 409, 429): the key is forgotten when the request
   * committed nothing, so the client may simply retry it; otherwise it is kept (a retry must never
   * repeat what committed) and its lease ends now, so a retry is judged at once (see `begin`).
   */
  async abandon(dataSource: DataSource, recordId: string) {
    await dataSource.query(`DELETE FROM idempotency_keys WHERE id = $1 AND effects_at IS NULL`, [recordId]);
    await dataSource.query(
      `UPDATE idempotency_keys SET leased_until = least(leased_until, now()) WHERE id = $1 AND state = 'in_flight'`,
      [recordId],
    );
  }

  async purgeExpired(dataSource: DataSource): Promise<number> {
    const result: [unknown[], number] = await dataSource.query(
      `DELETE FROM idempotency_keys WHERE expires_at <= now()`,
    );
    return Array.isArray(result) ? Number(result[1] ?? 0) : 0;
  }
}
