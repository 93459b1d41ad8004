import { DataSource } from 'typeorm';
import { DomainError, ErrorCode } from '../shared/errors';
import { SecretBox } from '../shared/crypto';

export type IdempotencyOutcome =
  | { kind: 'proceed'; recordId: string }
  | { kind: 'replay'; status: number; body: string; contentType: string | null };

export interface IdempotentRequest {
  scope: string;
  key: string;
  method: string;
  path: string;
  body: string;
}

/** An in-flight record older than this is taken to belong to a crashed process and may be retried. */
const IN_FLIGHT_LEASE_SECONDS = 300;

/**
 * `Idempotency-Key` on POST: the first response is stored and replayed for the key's lifetime;
 * the same key with a different request is refused, and so is a duplicate while the first runs.
 */
export class IdempotencyService {
  /**
   * Stored responses are sealed with the master key: some carry credentials shown once (a
   * regenerated key, new live credentials), which must never sit in the database in plain text.
   */
  constructor(private readonly ttlHours: number, private readonly box: SecretBox) {}

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
        `INSERT INTO idempotency_keys (scope, key, method, path, request_hash, state, expires_at)
         VALUES ($1, $2, $3, $4, $5, 'in_flight', now() + make_interval(hours => $6))
         ON CONFLICT (scope, key) DO NOTHING RETURNING id`,
        [request.scope, request.key, request.method, request.path, requestHash, this.ttlHours],
      );
      if (inserted.length > 0) return { kind: 'proceed', recordId: inserted[0].id };

      const [existing]: Array<{
        id: string; request_hash: string; state: string; response_status: number | null;
        response_body: string | null; response_content_type: string | null; expired: boolean; stale: boolean;
      }> = await dataSource.query(
        `SELECT id, request_hash, state, response_status, response_body, response_content_type,
                expires_at <= now() AS expired,
                (state = 'in_flight' AND created_at <= now() - make_interval(secs => $3)) AS stale
         FROM idempotency_keys WHERE scope = $1 AND key = $2`,
        [request.scope, request.key, IN_FLIGHT_LEASE_SECONDS],
      );
      if (!existing) continue;
      if (existing.expired || existing.stale) {
        await dataSource.query(`DELETE FROM idempotency_keys WHERE id = $1`, [existing.id]);
        continue;
      }
      if (existing.request_hash !== requestHash) {
        throw new DomainError(ErrorCode.IDEMPOTENCY_KEY_REUSED,
          'This Idempotency-Key was already used with a different request');
      }
      if (existing.state === 'in_flight') {
        throw new DomainError(ErrorCode.IDEMPOTENCY_REQUEST_IN_PROGRESS,
          'A request with this Idempotency-Key is still being processed; retry later');
      }
      return {
        kind: 'replay',
        status: existing.response_status ?? 200,
        body: existing.response_body ? this.box.open(existing.response_body) : '',
        contentType: existing.response_content_type,
      };
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

  /** Forgets a key whose request failed on the server's side, so the client may retry it. */
  async abandon(dataSource: DataSource, recordId: string) {
    await dataSource.query(`DELETE FROM idempotency_keys WHERE id = $1`, [recordId]);
  }

  async purgeExpired(dataSource: DataSource): Promise<number> {
    const result: [unknown[], number] = await dataSource.query(`DELETE FROM idempotency_keys WHERE expires_at <= now()`);
    return Array.isArray(result) ? Number(result[1] ?? 0) : 0;
  }
}
