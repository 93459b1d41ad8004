import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { PROJECT_ROOT } from '../src/project';
import { freePort, ROOT, spawnTs } from './support/process';

/**
 * The operator CLI finds the project's data from where the project is, never from the current
 * directory; where the project has no database it refuses with one line naming where it looked,
 * creates nothing (no data directory, no cluster, no key) and exits non-zero. Only the server
 * initialises a database.
 */

const made: string[] = [];
const scratch = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tessera-${prefix}-`));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every file and directory under `dir` (symbolic links not followed), relative to it; [] when it does not exist. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const name = path.join(prefix, entry.name);
      return entry.isDirectory() ? [name, ...filesUnder(path.join(dir, entry.name), name)] : [name];
    })
    .sort();
}

/** A project that was never started: the checkout's code and a link to its node_modules, no .data. */
function neverStartedProject(): string {
  const project = path.join(scratch('project'), 'tessera');
  // dist/ too when the run built it: the copy's commands then load the built code (test/support/process.ts).
  for (const entry of [
    'src',
    'migrations',
    'package.json',
    'tsconfig.json',
    ...(process.env.TESSERA_TEST_DIST === 'current' ? ['dist'] : []),
  ]) {
    fs.cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
  return project;
}

/** Runs a CLI command that must be refused: its exit code and its lines on stderr. */
async function refused(entry: string, args: string[], env: Record<string, string | undefined>, cwd: string) {
  const run = spawnTs(entry, args, env, { cwd });
  const timer = setTimeout(() => run.child.kill('SIGKILL'), 120_000);
  const code = await run.exited;
  clearTimeout(timer);
  expect(run.output()).not.toMatch(/^\s+at /m);
  return { code, errorLines: run.errorOutput().trim().split('\n') };
}

describe("the operator CLI and the project's data directory", () => {
  test("TESSERA_DATA_DIR, unset or relative, is taken from the project's folder, not from the current directory", () => {
    const elsewhere = scratch('cwd');
    const before = process.cwd();
    process.chdir(elsewhere);
    try {
      expect(loadConfig({}).dataDir).toBe(path.join(PROJECT_ROOT, '.data'));
      expect(loadConfig({ TESSERA_DATA_DIR: 'state/tessera' }).dataDir).toBe(
        path.join(PROJECT_ROOT, 'state', 'tessera'),
      );
      expect(loadConfig({ TESSERA_DATA_DIR: '/srv/tessera' }).dataDir).toBe('/srv/tessera');
    } finally {
      process.chdir(before);
    }
  });

  test('run from another folder against a project with no database, every command refuses with one line naming where it looked, exits 1 and creates nothing', async () => {
    const project = neverStartedProject();
    const cwd = scratch('elsewhere');
    const systemDir = path.join(scratch('system'), 'tessera');
    const env = {
      DATABASE_URL: undefined,
      TESSERA_DATA_DIR: undefined,
      TESSERA_MASTER_KEY: undefined,
      JWT_SECRET: undefined,
      TESSERA_SYSTEM_DIR: systemDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      TS_NODE_PROJECT: path.join(project, 'tsconfig.json'),
    };
    const projectFiles = filesUnder(project);
    const cli = path.join(project, 'src', 'cli', 'index.ts');
    const dataDir = path.join(project, '.data');
    for (const args of [
      ['business', 'list'],
      [
        'business',
        'create',
        '--name',
        'Elsewhere Ltd',
        '--email',
        'ops@elsewhere.test',
        '--password',
        'long enough password',
      ],
      ['migrate'],
      ['worker'],
    ]) {
      const { code, errorLines } = await refused(cli, args, env, cwd);
      expect({ args, code, errorLines: errorLines.length }).toEqual({ args, code: 1, errorLines: 1 });
      const { error } = JSON.parse(errorLines[0]);
      expect(error).toMatch(/^No database to open: there is no embedded PostgreSQL cluster for the data directory /);
      expect(error).toContain(`for the data directory ${dataDir} (looked in ${path.join(dataDir, 'pg')}`);
      expect(error).toMatch(/Only the server creates one: start it once with npm start/);
      // Nothing anywhere it could write: the project (its .data), the current directory, the system directory.
      expect(filesUnder(project)).toEqual(projectFiles);
      expect(filesUnder(cwd)).toEqual([]);
      expect(fs.existsSync(systemDir)).toBe(false);
    }
  }, 600_000);

  test('a DATABASE_URL that cannot be reached is refused with one line naming it (without its password), and nothing is created', async () => {
    const dataDir = path.join(scratch('data'), 'never-made');
    const url = `postgres://operator:hunter2-secret@127.0.0.1:${await freePort()}/tessera`;
    const { code, errorLines } = await refused(
      'src/cli/index.ts',
      ['business', 'list'],
      {
        DATABASE_URL: url,
        TESSERA_DATA_DIR: dataDir,
        TESSERA_MASTER_KEY: undefined,
        JWT_SECRET: undefined,
      },
      ROOT,
    );
    expect(code).toBe(1);
    expect(errorLines).toHaveLength(1);
    const { error } = JSON.parse(errorLines[0]);
    expect(error).toMatch(
      new RegExp(
        `^Cannot open the database at DATABASE_URL \\(postgres://operator@127\\.0\\.0\\.1:\\d+/tessera\\): .*ECONNREFUSED`,
      ),
    );
    expect(error).not.toContain('hunter2');
    expect(fs.existsSync(dataDir)).toBe(false);
  }, 120_000);
});
