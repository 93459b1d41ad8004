import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { areaMigrations, entities } from './entities';
import { whileHoldingMigrationLock } from './migration-lock';
import { migrations } from '../../migrations';
import { SnakeNamingStrategy } from './naming';
import { PipeliningClient } from './pipelining-client';

export interface DataSourceOptions {
  url: string;
  poolSize?: number;
  applicationName?: string;
}

export function createDataSource({ url, poolSize = 20, applicationName = 'tessera' }: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities,
    migrations: [...migrations, ...areaMigrations],
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    uuidExtension: 'pgcrypto',
    synchronize: false,
    logging: false,
    // Pipelined connections: fewer waits per transaction (src/db/pipelining-client.ts).
    extra: { max: poolSize, application_name: applicationName, Client: PipeliningClient },
  });
}

/** Runs every pending migration, one process at a time; returns the names of those it ran. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const { url } = dataSource.options as { url: string };
  const ran = await whileHoldingMigrationLock(url, () => dataSource.runMigrations({ transaction: 'each' }));
  return ran.map((migration) => migration.name);
}
