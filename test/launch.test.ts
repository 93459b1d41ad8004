import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './support/process';

/**
 * scripts/launch.js (behind `npm start`, `npm run worker`, `npm run migrate` and bin/tessera.js):
 * dist/ is rebuilt only when its sources changed, with one line saying so first; a failed build
 * shows tsc's errors and runs nothing. Run on a small project of its own, with the real launcher,
 * bin and TypeScript, so each build takes seconds instead of the whole project's minute.
 */
let project: string;

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
  fs.writeFileSync(path.join(project, file), text);
}

const entry = (name: string, greeting: string) =>
  `const who: string = '${greeting}';\nconsole.log(\`${name} \${who} \${JSON.stringify(process.argv.slice(2))}\`);\nexport {};\n`;

function run(file: string, args: string[] = []) {
  const child = spawn(process.execPath, [file, ...args], { cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const launch = (args: string[]) => run(path.join(project, 'scripts', 'launch.js'), args);
const builtMain = () => path.join(project, 'dist', 'src', 'main.js');

beforeAll(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-launch-'));
  fs.cpSync(path.join(ROOT, 'scripts', 'launch.js'), path.join(project, 'scripts', 'launch.js'));
  fs.cpSync(path.join(ROOT, 'bin', 'tessera.js'), path.join(project, 'bin', 'tessera.js'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
  write('package.json', '{ "name": "launch-fixture", "private": true }\n');
  write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        strict: true,
        outDir: 'dist',
        rootDir: '.',
        types: ['node'],
      },
      include: ['src'],
    }),
  );
  write(
    'tsconfig.build.json',
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: { incremental: true, tsBuildInfoFile: 'dist/.tsbuildinfo' },
    }),
  );
  write('src/main.ts', entry('main', 'hello'));
  write('src/cli/index.ts', entry('cli', 'operator'));
  // The launcher's second build step bundles the GraphQL explorer (test/front-door.test.ts covers it); here it only does nothing.
  write('scripts/build-explorer.js', 'process.exitCode = 0;\n');
  // And its third builds the dashboard (test/dashboard.browser.test.ts covers it): the same.
  write('scripts/build-dashboard.js', 'process.exitCode = 0;\n');
});
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

describe('building before a start (scripts/launch.js)', () => {
  test('a fresh clone is built once, with one line first; a later start with nothing changed builds nothing', async () => {
    const first = await launch(['src/main.js', 'a', '--b']);
    expect(first).toMatchObject({ code: 0, stdout: 'main hello ["a","--b"]\n' });
    expect(first.stderr).toBe('[tessera] building (first start, about a minute)…\n');

    const builtAt = fs.statSync(builtMain()).mtimeMs;
    const second = await launch(['src/main.js']);
    expect(second).toEqual({ code: 0, stdout: 'main hello []\n', stderr: '' });
    expect(fs.statSync(builtMain()).mtimeMs).toBe(builtAt);
  }, 120_000);

  test('a changed source is rebuilt, with a line saying so, and the new code runs', async () => {
    write('src/main.ts', entry('main', 'changed'));
    const result = await launch(['src/main.js']);
    expect(result).toEqual({
      code: 0,
      stdout: 'main changed []\n',
      stderr: '[tessera] rebuilding: sources changed since the last build…\n',
    });
  }, 120_000);

  test('a built file deleted by hand is built again, though no source changed', async () => {
    fs.rmSync(builtMain());
    const result = await launch(['src/main.js']);
    expect(result).toEqual({
      code: 0,
      stdout: 'main changed []\n',
      stderr: '[tessera] rebuilding: dist/src/main.js is missing…\n',
    });
  }, 120_000);

  test("a failed build prints tsc's errors, runs nothing, exits non-zero, and is tried again on the next start", async () => {
    write('src/main.ts', 'const broken: number = "not a number";\nconsole.log("ran", broken);\nexport {};\n');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const result = await launch(['src/main.js']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/src\/main\.ts.*error TS2322/);
      expect(result.stderr).toMatch(
        /\[tessera\] the build failed: tsc exited with code 2\. Fix what it reported above and start again\.\n$/,
      );
    }
    write('src/main.ts', entry('main', 'fixed'));
    expect(await launch(['src/main.js'])).toMatchObject({ code: 0, stdout: 'main fixed []\n' });
  }, 120_000);

  test('two starts at once after a change build once: the second waits for the first', async () => {
    write('src/main.ts', entry('main', 'together'));
    const [one, two] = await Promise.all([launch(['src/main.js']), launch(['src/main.js'])]);
    expect([one.stdout, two.stdout]).toEqual(['main together []\n', 'main together []\n']);
    expect(`${one.stderr}${two.stderr}`.match(/rebuilding/g)).toHaveLength(1);
  }, 120_000);

  test('bin/tessera.js follows the same rule: it rebuilds a changed source before running the CLI, from any folder', async () => {
    write('src/cli/index.ts', entry('cli', 'rebuilt'));
    const result = await run(path.join(project, 'bin', 'tessera.js'), ['business', 'list']);
    expect(result).toEqual({
      code: 0,
      stdout: 'cli rebuilt ["business","list"]\n',
      stderr: '[tessera] rebuilding: sources changed since the last build…\n',
    });
    expect(await run(path.join(project, 'bin', 'tessera.js'), ['--version'])).toEqual({
      code: 0,
      stdout: 'cli rebuilt ["--version"]\n',
      stderr: '',
    });
  }, 120_000);
});
