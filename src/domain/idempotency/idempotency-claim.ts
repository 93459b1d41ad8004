import type { EntityTarget, FindOptionsWhere } from 'typeorm';
import type { IdempotencyHold, IdempotentResource, RequestContext } from '../shared/context';
import { DomainError } from '../shared/errors';
import { IdempotencyErrorCode } from './idempotency.errors';

export interface MadeResource {
  type: IdempotentResource;
  id: string;
}

/**
 * A request's hold on its `Idempotency-Key` record, carried by its RequestContext into the domain.
 * Every database transaction of the request enters the claim first (`inTransaction` does it), in
 * that same transaction:
 * - it marks the record as having taken effect (`effects_at`), atomically with the effect: once
 *   anything committed, a retry never runs the request again from the start;
 * - it fails when the record is gone, which is how a retry takes over a key whose holder died (or
 *   overran its lease) before committing anything: the retry deletes the record, so the old
 *   holder, if it was only slow, can no longer commit. Either the holder's transaction or the
 *   retry's takeover wins; never both (the row lock orders them).
 * An operation that can be resumed names what it made (`recordResource`); a retry after the lease
 * re-runs the request, and the operation answers from that resource instead of repeating it.
 */
export class IdempotencyClaim implements IdempotencyHold {
  private resources = new Map<IdempotentResource, string>();

  /** `made`: what an earlier run of the request named (IdempotencyService.begin resumes such a key). */
  constructor(
    readonly recordId: string,
    made: MadeResource | null = null,
  ) {
    if (made) this.resources.set(made.type, made.id);
  }

  async enter(tx: RequestContext): Promise<void> {
    const [record]: Array<{ resource_type: IdempotentResource | null; resource_id: string | null }> = await tx.em.query(
      `WITH entered AS (UPDATE idempotency_keys SET effects_at = coalesce(effects_at, now()) WHERE id = $1 RETURNING resource_type, resource_id)
       SELECT resource_type, resource_id FROM entered`,
      [this.recordId],
    );
    if (!record) {
      throw new DomainError(
        IdempotencyErrorCode.IDEMPOTENCY_REQUEST_IN_PROGRESS,
        'A retry with this Idempotency-Key took it over after this request outlived its lease; this request changed nothing',
      );
    }
    if (record.resource_type && record.resource_id) this.resources.set(record.resource_type, record.resource_id);
  }

  /** The id of the `type` an earlier run of this request made, if any (known once a transaction entered the claim). */
  resourceOf(type: IdempotentResource): string | null {
    return this.resources.get(type) ?? null;
  }

  /** Records, in the transaction that made it, what this request made; the first resource of the request is kept. */
  async recordResource(tx: RequestContext, type: IdempotentResource, id: string): Promise<void> {
    if (this.resources.size > 0) return;
    await tx.em.query(
      `UPDATE idempotency_keys SET resource_type = $2, resource_id = $3 WHERE id = $1 AND resource_id IS NULL`,
      [this.recordId, type, id],
    );
    tx.afterCommit(() => {
      this.resources.set(type, id);
    });
  }
}

/**
 * The `entity` of the business that an earlier run of this request made and named `type`, if it
 * did: a resumed request answers from it (as it is now) instead of making another. Asked first, before
 * any check a second run would fail (the funds the first one spent, the quote it used).
 */
export async function madeEarlier<T extends { id: string; businessId: string }>(
  ctx: RequestContext,
  type: IdempotentResource,
  entity: EntityTarget<T>,
): Promise<T | null> {
  const id = ctx.idempotency?.resourceOf(type);
  if (!id) return null;
  return ctx.repo(entity).findOne({ where: { id, businessId: ctx.requireBusiness() } as FindOptionsWhere<T> });
}
