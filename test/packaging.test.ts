import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { validate } from 'dockerfile-utils';
import YAML from 'yaml';
import { loadConfig } from '../src/config';
import { ConfigError } from '../src/startup-error';
import { operatorProgram } from '../src/cli/program';

/**
 * The container files, checked without a container engine: the Dockerfile's final stage, the
 * compose file's production shape, and that every process it runs passes src/config.ts's
 * production checks with the variables it is given. scripts/container-check.sh runs them for real.
 */

const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), one list per stage. */
function dockerfileStages(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  const lines = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n');
  for (const line of lines) {
    const match = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const instruction = { keyword: match[1].toUpperCase(), args: match[2].replace(/\s+/g, ' ').trim() };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

/** `ENV A=1 B=2` instructions of a stage, as a map. */
const envOf = (stage: Instruction[]) =>
  Object.fromEntries(
    stage
      .filter((i) => i.keyword === 'ENV')
      .flatMap((i) => i.args.split(' ').map((pair) => pair.split('=') as [string, string])),
  );

/** `KEY=value` lines of an env file. */
const envFile = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

/** Compose's interpolation: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `${VAR?error}`. */
function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, name?: string, colon?: string, operator?: string, operand?: string, bare?: string) => {
      if (whole === '$$') return '$';
      const key = (name ?? bare)!;
      const current = vars[key];
      const missing = current === undefined || (colon === ':' && current === '');
      if (operator === '?' && missing) throw new Error(`${key}: ${operand}`);
      if (operator === '-' && missing) return operand!;
      return current ?? '';
    },
  );
}

interface ComposeService {
  build?: unknown;
  image?: string;
  command?: string[];
  environment?: Record<string, string | number | boolean>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { disable?: boolean; test?: string[] };
}

const compose = YAML.parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
const services = Object.entries(compose.services);
const tesseraServices = services.filter(([, service]) => service.build !== undefined);
const stages = dockerfileStages(read('Dockerfile'));
const finalStage = stages.at(-1)!;
const imageEnv = envOf(finalStage);
const example = envFile(read('compose.env.example'));
/** What an operator writes into .env: the example, with each secret it leaves empty filled in. */
const operatorEnv = Object.fromEntries(
  Object.entries(example).map(([key, value]) => [key, value || crypto.randomBytes(24).toString('hex')]),
);
const packageJson = JSON.parse(read('package.json')) as {
  main: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
};

/** A service's environment as the container sees it: the image's ENV, then compose's (interpolated from `vars`). */
const containerEnv = (service: ComposeService, vars: Record<string, string | undefined>) => ({
  ...imageEnv,
  ...Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), vars)]),
  ),
});

describe('Dockerfile', () => {
  test('passes the dockerfile-utils linter, warnings included', () => {
    const problems = validate(read('Dockerfile')).map(
      (problem) =>
        `line ${problem.range.start.line + 1}: ${typeof problem.message === 'string' ? problem.message : problem.message.value}`,
    );
    expect(problems).toEqual([]);
  });

  test('is multi-stage: the build stage installs every dependency and runs `npm run build`', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages.slice(0, -1).flat();
    expect(build).toContainEqual({ keyword: 'RUN', args: expect.stringMatching(/\bnpm ci\b/) });
    expect(build).toContainEqual({ keyword: 'RUN', args: expect.stringMatching(/\bnpm run build\b/) });
  });

  test('the final stage installs production dependencies only and takes nothing but the built code from the build stage', () => {
    const installs = finalStage.filter((i) => i.keyword === 'RUN' && /\bnpm (ci|install|i)\b/.test(i.args));
    expect(installs.length).toBeGreaterThan(0);
    for (const { args } of installs) expect(args).toMatch(/\bnpm ci [^&;]*--omit=dev/);
    const fromBuild = finalStage.filter((i) => i.keyword === 'COPY' && i.args.includes('--from'));
    expect(fromBuild.map((i) => i.args)).toEqual([expect.stringMatching(/ \/app\/dist /)]);
    expect(finalStage.filter((i) => /\b(ts-node|jest|tsc)\b/.test(i.args))).toEqual([]);
  });

  test('the final stage runs as a non-root user, in production, with a health check on /healthz', () => {
    const user = finalStage.filter((i) => i.keyword === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(imageEnv.NODE_ENV).toBe('production');
    const healthcheck = finalStage.find((i) => i.keyword === 'HEALTHCHECK')?.args;
    expect(healthcheck).toMatch(/CMD .*\/healthz/);
    expect(finalStage.map((i) => i.keyword)).toContain('EXPOSE');
  });

  test("its entry commands exist: CMD runs package.json's main, and `tessera` is the package's bin", () => {
    const cmd = JSON.parse(finalStage.filter((i) => i.keyword === 'CMD').at(-1)!.args) as string[];
    expect(cmd).toEqual(['node', packageJson.main]);
    // npm start runs the same entry through the launcher, which builds dist/ first when a source changed.
    expect(packageJson.scripts.start).toBe(`node scripts/launch.js ${path.relative('dist', packageJson.main)}`);
    expect(fs.existsSync(path.join(ROOT, packageJson.bin.tessera))).toBe(true);
    expect(finalStage).toContainEqual({
      keyword: 'RUN',
      args: expect.stringContaining(`ln -s /app/${packageJson.bin.tessera} /usr/local/bin/tessera`),
    });
    expect(finalStage).toContainEqual({
      keyword: 'COPY',
      args: `${path.dirname(packageJson.bin.tessera)} ./${path.dirname(packageJson.bin.tessera)}`,
    });
    // What the bin loads from outside its folder is in the image too (bin/tessera.js runs the CLI through scripts/launch.js).
    const binDir = path.dirname(packageJson.bin.tessera);
    const loaded = [...read(packageJson.bin.tessera).matchAll(/require\('(\.\.\/[^']+)'\)/g)].map((match) =>
      path.join(binDir, match[1]),
    );
    expect(loaded).not.toEqual([]);
    for (const file of loaded) {
      expect(finalStage).toContainEqual({ keyword: 'COPY', args: `${file} ./${file}` });
    }
  });

  test('.dockerignore keeps installed and built output, local data, secrets and history out of the build', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.data', '.env', '.git']));
  });
});

describe('compose.yaml: the production shape', () => {
  test('PostgreSQL, Redis, a one-shot migration, two API processes and a worker, all Tessera ones from the Dockerfile', () => {
    expect(services.map(([name]) => name).sort()).toEqual(['api-1', 'api-2', 'db', 'migrate', 'redis', 'worker']);
    expect(tesseraServices.map(([name]) => name).sort()).toEqual(['api-1', 'api-2', 'migrate', 'worker']);
    expect(new Set(tesseraServices.map(([, service]) => service.image)).size).toBe(1);
  });

  test('each command the image runs is one the CLI has', () => {
    // The commands the operator CLI declares, the kernel's and each area's (src/cli/program.ts).
    const cliCommands = operatorProgram().commands.map((command) => command.name());
    const commands = tesseraServices.map(([, service]) => service.command).filter((command) => command !== undefined);
    expect(commands).toEqual(
      expect.arrayContaining([
        ['tessera', 'migrate'],
        ['tessera', 'worker'],
      ]),
    );
    for (const [bin, sub] of commands) {
      expect(Object.keys(packageJson.bin)).toContain(bin);
      expect(cliCommands).toContain(sub);
    }
  });

  test('the APIs and the worker start after the migration finished; it starts once PostgreSQL is healthy', () => {
    expect(compose.services.migrate.depends_on?.db).toEqual({ condition: 'service_healthy' });
    for (const name of ['api-1', 'api-2', 'worker']) {
      expect(compose.services[name].depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
    expect(compose.services.db.healthcheck?.test).toBeDefined();
    expect(compose.services.redis.healthcheck?.test).toBeDefined();
  });

  test('each API process has its own port and no in-process worker; one worker process runs the jobs', () => {
    const apis = ['api-1', 'api-2'].map((name) => compose.services[name]);
    for (const api of apis) {
      const config = loadConfig(containerEnv(api, operatorEnv));
      expect(config.workerInProcess).toBe(false);
      expect(config.host).toBe('0.0.0.0');
      expect(api.ports).toHaveLength(1);
      expect(api.healthcheck?.disable).not.toBe(true);
    }
    const published = apis.map((api) => interpolate(api.ports![0], operatorEnv).split(':').slice(0, -1).join(':'));
    expect(new Set(published).size).toBe(2);
  });

  test("every Tessera process passes src/config.ts's production checks with what compose gives it", () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    for (const [name, service] of tesseraServices) {
      const env = containerEnv(service, operatorEnv);
      expect({ name, NODE_ENV: env.NODE_ENV }).toEqual({ name, NODE_ENV: 'production' });
      expect(() => loadConfig(env)).not.toThrow();
      const config = loadConfig(env);
      expect({ name, database: config.databaseUrl, redis: config.redisUrl }).toEqual({
        name,
        database: expect.stringMatching(/^postgres:\/\/.*@db:5432\//),
        redis: 'redis://redis:6379',
      });
    }
  });

  test("the secrets come only from the operator's .env: compose refuses to start without each one", () => {
    const secrets = Object.entries(example)
      .filter(([, value]) => value === '')
      .map(([key]) => key);
    expect(secrets).toEqual(expect.arrayContaining(['POSTGRES_PASSWORD', 'TESSERA_MASTER_KEY', 'JWT_SECRET']));
    for (const secret of secrets) {
      const without = { ...operatorEnv, [secret]: '' };
      const refusals = services.filter(([, service]) => {
        try {
          containerEnv(service, without);
          return false;
        } catch (error) {
          return (error as Error).message.startsWith(`${secret}:`);
        }
      });
      expect({ secret, refusedBy: refusals.length > 0 }).toEqual({ secret, refusedBy: true });
    }
  });
});
