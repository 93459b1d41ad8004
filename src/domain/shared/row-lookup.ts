import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Which of `entities` hold each id, as a primary key (their indexes, in order; two entities may
 * share a table): one statement over every table, a primary-key index lookup each (a uuid key is
 * compared as a uuid). Ids no table holds are absent; the answer says nothing about who may see a row.
 */
export async function entitiesHolding(
  dataSource: DataSource,
  entities: ReadonlyArray<EntityTarget<ObjectLiteral>>,
  ids: readonly string[],
): Promise<Map<string, number[]>> {
  const holders = new Map<string, number[]>();
  if (ids.length === 0 || entities.length === 0) return holders;
  const union = entities
    .map((entity, index) => {
      const metadata = dataSource.getMetadata(entity);
      const [key] = metadata.primaryColumns;
      const typed = key.type === 'uuid' ? '$1::uuid[]' : '$1::text[]';
      return `SELECT ${index} AS holder, "${key.databaseName}"::text AS id FROM "${metadata.tableName}" WHERE "${key.databaseName}" = ANY(${typed})`;
    })
    .join(' UNION ALL ');
  const rows: Array<{ holder: number; id: string }> = await dataSource.query(union, [ids]);
  for (const row of [...rows].sort((a, b) => a.holder - b.holder))
    holders.set(row.id, [...(holders.get(row.id) ?? []), row.holder]);
  return holders;
}
