import fs from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { PROJECT_ROOT } from '../project';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'migrations');

/** The SQL that would bring the database to the entities' shape; empty when they match. */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<{ up: string[]; down: string[] }> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return {
    up: log.upQueries.map((query) => query.query),
    down: log.downQueries.map((query) => query.query).reverse(),
  };
}

const quote = (sql: string) => '`' + sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';

/** Writes `migrations/<timestamp>-<Name>.ts` from the entity/database difference and registers it. */
export async function generateMigration(dataSource: DataSource, name: string): Promise<string | null> {
  const { up, down } = await pendingSchemaChanges(dataSource);
  if (up.length === 0) return null;
  const timestamp = Date.now();
  const className = `${name.replace(/[^A-Za-z0-9]/g, '')}${timestamp}`;
  const fileBase = `${timestamp}-${name.replace(/[^A-Za-z0-9]/g, '')}`;
  const body = `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${up.map((sql) => `    await queryRunner.query(${quote(sql)});`).join('\n')}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${down.map((sql) => `    await queryRunner.query(${quote(sql)});`).join('\n')}
  }
}
`;
  fs.writeFileSync(path.join(MIGRATIONS_DIR, `${fileBase}.ts`), body);
  const indexFile = path.join(MIGRATIONS_DIR, 'index.ts');
  const index = fs.readFileSync(indexFile, 'utf8');
  const withImport = `import { ${className} } from './${fileBase}';\n${index}`;
  const updated = withImport.replace(
    /export const migrations: Function\[\] = \[([\s\S]*?)\];/,
    (_match, list: string) => {
      const items = list
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      items.push(className);
      return `export const migrations: Function[] = [\n${items.map((item) => `  ${item},`).join('\n')}\n];`;
    },
  );
  fs.writeFileSync(indexFile, updated);
  return fileBase;
}
