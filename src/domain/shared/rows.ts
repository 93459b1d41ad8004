import { EntityTarget, ObjectLiteral } from 'typeorm';
import { RequestContext } from './context';

/**
 * An entity from a raw row of its table (`RETURNING *` of a hand-written statement), converted as
 * TypeORM converts what it reads itself (column types and transformers: bigint money included).
 */
export function entityFromRow<T extends ObjectLiteral>(ctx: RequestContext, entity: EntityTarget<T>, row: Record<string, unknown>): T {
  const metadata = ctx.dataSource.getMetadata(entity);
  const object = metadata.create() as T;
  for (const column of metadata.columns) {
    if (column.databaseName in row) column.setEntityValue(object, ctx.dataSource.driver.prepareHydratedValue(row[column.databaseName], column));
  }
  return object;
}
