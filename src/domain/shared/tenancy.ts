import {
  Column,
  CreateDateColumn,
  EntityTarget,
  FindOptionsWhere,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { RequestContext } from './context';
import { notFound } from './errors';
import { isUuid } from './ids';

/**
 * A row that belongs to one business in one mode. Every read and write of such a row goes
 * through `findOwned` / `lockOwned`, so a row of another business or mode is NOT_FOUND (never
 * FORBIDDEN: ids must not leak across tenants).
 */
export abstract class TenantEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') businessId: string;
  @Column('boolean') livemode: boolean;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

/** A tenant row that changes after creation. */
export abstract class MutableTenantEntity extends TenantEntity {
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

const ownedWhere = <T extends TenantEntity>(ctx: RequestContext, id: string) =>
  ({ id, businessId: ctx.requireBusiness(), livemode: ctx.livemode }) as FindOptionsWhere<T>;

/** The context's own row with this id, or NOT_FOUND naming `what` ("Fraud rule not found"). */
export async function findOwned<T extends TenantEntity>(
  ctx: RequestContext,
  entity: EntityTarget<T>,
  id: string,
  what: string,
): Promise<T> {
  const row = isUuid(id) ? await ctx.repo(entity).findOne({ where: ownedWhere<T>(ctx, id) }) : null;
  if (!row) throw notFound(what);
  return row;
}

/**
 * The context's own row, locked for update until the transaction ends (state changes, refunds,
 * anything that reads a row and then writes it on that reading).
 */
export async function lockOwned<T extends TenantEntity>(
  tx: RequestContext,
  entity: EntityTarget<T>,
  id: string,
  what: string,
): Promise<T> {
  if (!tx.inTransaction) throw new Error('lockOwned needs a transaction (use inTransaction)');
  const row = isUuid(id)
    ? await tx.repo(entity).findOne({ where: ownedWhere<T>(tx, id), lock: { mode: 'pessimistic_write' } })
    : null;
  if (!row) throw notFound(what);
  return row;
}
