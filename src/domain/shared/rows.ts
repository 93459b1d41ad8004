import { EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { DriverUtils } from 'typeorm/driver/DriverUtils';
import { RequestContext } from './context';

/**
 * Rows of one table turned into their entity the way TypeORM does it (`new Entity()`, every column
 * through the driver's `prepareHydratedValue`, so transformers such as bigint's apply), without
 * TypeORM's generic result transformer: for the loaders' batch reads and keyset pages (50 rows
 * with their refunds, disputes and customers for the dashboard) that transformer and the query
 * builder were the largest share of a request's CPU. Only what that transformer does for a read
 * without joins: every column of one table. Relations are left unloaded (as TypeORM leaves them
 * without a join); entities with embedded columns or table inheritance are refused.
 */
export class EntityRows<T extends ObjectLiteral> {
  private readonly columns: readonly ColumnMetadata[];

  private constructor(private readonly metadata: EntityMetadata) {
    if (
      metadata.embeddeds.length > 0 ||
      metadata.discriminatorColumn ||
      metadata.parentEntityMetadata ||
      metadata.childEntityMetadatas.length > 0
    ) {
      throw new Error(`EntityRows reads single-table entities without embedded columns, not ${metadata.name}`);
    }
    this.columns = metadata.columns.filter((column) => !column.isVirtual);
  }

  private static readonly byMetadata = new WeakMap<EntityMetadata, EntityRows<ObjectLiteral>>();

  static of<T extends ObjectLiteral>(ctx: RequestContext, entity: EntityTarget<T>): EntityRows<T> {
    return EntityRows.ofMetadata<T>(ctx.repo(entity).metadata);
  }

  static ofMetadata<T extends ObjectLiteral>(metadata: EntityMetadata): EntityRows<T> {
    let rows = EntityRows.byMetadata.get(metadata);
    if (!rows) EntityRows.byMetadata.set(metadata, (rows = new EntityRows(metadata)));
    return rows as EntityRows<T>;
  }

  private readonly keysByAlias = new Map<string | null, readonly string[]>();

  /**
   * The result keys of the columns under `alias`: the ones TypeORM's query builder gives them in
   * raw rows; without an alias, the column names themselves (`RETURNING *`).
   */
  private keysOf(alias: string | null): readonly string[] {
    let keys = this.keysByAlias.get(alias);
    if (!keys) {
      keys = this.columns.map((column) =>
        alias === null
          ? column.databaseName
          : DriverUtils.buildAlias(this.metadata.connection.driver, undefined, alias, column.databaseName),
      );
      this.keysByAlias.set(alias, keys);
    }
    return keys;
  }

  get tableName(): string {
    return this.metadata.tableName;
  }

  /** Every column of the entity selected from `alias`, under the keys `hydrate` reads. */
  selectList(alias: string): string {
    const keys = this.keysOf(alias);
    return this.columns.map((column, index) => `"${alias}"."${column.databaseName}" AS "${keys[index]}"`).join(', ');
  }

  /**
   * The entity of one raw row whose columns are keyed as `selectList` (or TypeORM's query builder)
   * names them; with a null alias, by their column names (`RETURNING *` of a hand-written statement).
   */
  hydrate(row: Record<string, unknown>, alias: string | null): T {
    const { driver } = this.metadata.connection;
    const keys = this.keysOf(alias);
    const entity = this.metadata.create() as T;
    this.columns.forEach((column, index) => {
      const value = row[keys[index]];
      if (value !== undefined) column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
    });
    return entity;
  }

  /**
   * `SELECT <every column> FROM <table> "alias" <rest>`: `rest` is the WHERE / ORDER BY / LIMIT
   * written against `alias` with $1… parameters.
   */
  async select(ctx: RequestContext, alias: string, rest: string, parameters: unknown[]): Promise<T[]> {
    const rows: Record<string, unknown>[] = await ctx.em.query(
      `SELECT ${this.selectList(alias)} FROM "${this.metadata.tableName}" "${alias}" ${rest}`,
      parameters,
    );
    return rows.map((row) => this.hydrate(row, alias));
  }
}

/** A column written as SQL instead of a value; `bind` adds a parameter and answers its placeholder. */
export type ColumnSql = (bind: (value: unknown) => string) => string;

/**
 * `INSERT INTO <table> (<the columns given>) VALUES (...) RETURNING *` and the entity it stored,
 * without TypeORM's insert builder (on the charge path it was the largest share of the query
 * builders' CPU): each value goes through the driver's `preparePersistentValue`, as the builder
 * does (transformers such as bigint's, JSON), columns left undefined take their database default
 * (the builder writes DEFAULT), and `computed` columns are written as SQL.
 */
export async function insertReturning<T extends ObjectLiteral>(
  ctx: RequestContext,
  entity: EntityTarget<T>,
  fields: Partial<T>,
  computed: Partial<Record<keyof T & string, ColumnSql>> = {},
): Promise<T> {
  const { metadata } = ctx.repo(entity);
  const { driver } = metadata.connection;
  const params: unknown[] = [];
  const bind = (value: unknown) => `$${params.push(value)}`;
  const names: string[] = [];
  const values: string[] = [];
  for (const column of metadata.columns) {
    if (column.isVirtual) continue;
    const sql = computed[column.propertyName as keyof T & string];
    const value = (fields as Record<string, unknown>)[column.propertyName];
    if (!sql && value === undefined) continue;
    names.push(`"${column.databaseName}"`);
    values.push(sql ? sql(bind) : bind(driver.preparePersistentValue(value, column)));
  }
  const [row]: Array<Record<string, unknown>> = await ctx.em.query(
    `INSERT INTO "${metadata.tableName}" (${names.join(', ')}) VALUES (${values.join(', ')}) RETURNING *`,
    params,
  );
  return EntityRows.of(ctx, entity).hydrate(row, null);
}

/** An entity from a raw row of its table keyed by column names (`RETURNING *` of a hand-written statement). */
export function entityFromRow<T extends ObjectLiteral>(
  ctx: RequestContext,
  entity: EntityTarget<T>,
  row: Record<string, unknown>,
): T {
  return EntityRows.of(ctx, entity).hydrate(row, null);
}
