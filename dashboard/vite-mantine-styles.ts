import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** What `src/main.tsx` imports for Mantine's component styles. */
const ID = 'virtual:mantine-styles';
const RESOLVED = `\0${ID}`;
/** The sheets every page needs, whatever its components: the reset, the theme's variables, the global rules. */
const BASE = ['baseline', 'default-css-variables', 'global'];
/** Mantine's packages besides core whose components the app uses: they import core's components too. */
const PACKAGES = ['dates', 'charts', 'notifications'];
const NAMED_IMPORT = (from: string) =>
  new RegExp(`import\\s*(?:type\\s*)?\\{([^}]*)\\}\\s*from\\s*['"]${from}['"]`, 'g');

/**
 * Mantine's style sheet with only the components the dashboard uses: `@mantine/core/styles.css`
 * holds every component's rules (290 kB, some 100 components), which the browser parses and matches
 * against at every first load; this one holds the ~40 the app's screens and Mantine's other packages
 * use, their dependencies included (read from Mantine's own import graph), in the order of
 * `styles.css` (a component's dependencies first, as Mantine's per-component imports require).
 *
 * The set is read from the sources: every name `src/` imports from '@mantine/core', and every name
 * `@mantine/dates`, `charts` and `notifications` import from it. A name it cannot place fails the
 * build (a component never goes without its styles silently). `vite dev` serves the whole sheet.
 */
export function mantineStyles(): Plugin {
  let serve = false;
  let root = '';
  return {
    name: 'tessera-mantine-styles',
    configResolved(config) {
      serve = config.command === 'serve';
      root = config.root;
    },
    resolveId(id) {
      return id === ID ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      if (serve) return `import '@mantine/core/styles.css';\n`;
      return usedSheets(root)
        .map((sheet) => `import '@mantine/core/styles/${sheet}.css';`)
        .join('\n');
    },
  };
}

/** The sheets of `@mantine/core/styles/` the app needs, in `styles.css`'s order. */
export function usedSheets(root: string): string[] {
  const require = createRequire(path.join(root, 'package.json'));
  const core = path.dirname(require.resolve('@mantine/core/styles.css'));
  const esm = path.join(core, 'esm');
  // Each export of core's index and the module it comes from (null: another package's, such as
  // react-remove-scroll's RemoveScroll, which has no sheet).
  const modules = new Map<string, string | null>();
  for (const [, names = '', from = ''] of fs
    .readFileSync(path.join(esm, 'index.mjs'), 'utf8')
    .matchAll(/import \{([^}]*)\} from "([^"]+)"/g)) {
    for (const name of namesOf(names)) modules.set(name, from.startsWith('.') ? path.join(esm, from) : null);
  }

  const components = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const component = /[\\/]esm[\\/]components[\\/]([^\\/]+)[\\/]/.exec(file)?.[1];
    if (component) components.add(component);
    for (const [, from = ''] of fs.readFileSync(file, 'utf8').matchAll(/from "(\.[^"]+)"/g)) {
      visit(path.resolve(path.dirname(file), from));
    }
  };
  const use = (name: string, where: string) => {
    const module = modules.get(name);
    if (module === undefined) {
      throw new Error(`${where} imports ${name} from '@mantine/core', which its index does not export`);
    }
    if (module) visit(module);
  };

  for (const file of sourceFiles(path.join(root, 'src'))) {
    for (const [, names = ''] of fs.readFileSync(file, 'utf8').matchAll(NAMED_IMPORT('@mantine/core'))) {
      for (const name of namesOf(names)) use(name, path.relative(root, file));
    }
  }
  for (const name of PACKAGES) {
    const dir = path.join(path.dirname(require.resolve(`@mantine/${name}/styles.css`)), 'esm');
    for (const file of sourceFiles(dir)) {
      for (const [, names = ''] of fs.readFileSync(file, 'utf8').matchAll(NAMED_IMPORT('@mantine/core'))) {
        for (const imported of namesOf(names)) use(imported, `@mantine/${name}`);
      }
    }
  }

  // styles.css is every sheet of styles/ one after the other: its order is where each one's text starts.
  const whole = fs.readFileSync(path.join(core, 'styles.css'), 'utf8');
  const sheets = [...BASE, ...[...components].filter((c) => fs.existsSync(path.join(core, 'styles', `${c}.css`)))];
  const at = new Map(
    sheets.map((sheet) => {
      const text = fs.readFileSync(path.join(core, 'styles', `${sheet}.css`), 'utf8').trim();
      const start = whole.indexOf(text.slice(0, 200));
      if (start < 0)
        throw new Error(`@mantine/core/styles/${sheet}.css is not part of styles.css: its order is unknown`);
      return [sheet, start];
    }),
  );
  return sheets.sort((a, b) => at.get(a)! - at.get(b)!);
}

function namesOf(list: string): string[] {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith('type '))
    .map((part) => part.split(/\s+as\s+/)[0]!);
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((entry) =>
      entry.isFile() && /\.(tsx?|mjs)$/.test(entry.name) ? [path.join(entry.parentPath, entry.name)] : [],
    );
}
