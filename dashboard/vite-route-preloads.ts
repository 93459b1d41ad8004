import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type OutputChunk = Rolldown.OutputChunk;

/** What the server adds to the page of a route: the route's own scripts and style sheets (`assets/…`). */
export interface RoutePreload {
  /** The route's path under /dashboard as the router writes it (`payments/:id`; `''` for the home screen). */
  path: string;
  js: string[];
  css: string[];
}

/** Where the build writes the routes' preloads (dist/dashboard/route-preloads.json), read by src/server/dashboard.ts. */
export const ROUTE_PRELOADS = 'route-preloads.json';

/** A route and the module its screen is: `path: '…'` and `import('./…')` in one entry of the registry or the router. */
const ROUTE = /\{\s*path:\s*'([^']*)',(?:(?!\{\s*path:)[\s\S])*?import\('(\.[^']+)'\)/g;
const SOURCES = [
  { file: 'src/screens/registry.ts', entries: /\bload: \(\) => import\(/g },
  { file: 'src/router.tsx', entries: /\blazy: async \(\) => \(\{ Component: \(await import\(/g },
];

/**
 * Writes route-preloads.json: for each route of the registry and the router, the scripts and style
 * sheets its screen's module needs beyond the first load (its chunk and the chunks that chunk imports).
 * The server names them in the page it serves for that route (`<link rel="modulepreload">`), so the
 * browser fetches and compiles the screen's code while it fetches the first load's, instead of only
 * once the app has started and its router asked for the screen. Throws when an entry of the registry
 * or the router cannot be read (a route's preload never goes missing silently).
 */
export function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'tessera-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const byModule = new Map(chunks.filter((chunk) => chunk.facadeModuleId).map((c) => [c.facadeModuleId!, c]));
      const firstLoad = new Set<string>();
      for (const entry of chunks.filter((chunk) => chunk.isEntry)) collect(entry, byFile, firstLoad);

      const routes: RoutePreload[] = [];
      for (const source of SOURCES) {
        const file = path.join(root, source.file);
        const text = fs.readFileSync(file, 'utf8');
        const found = [...text.matchAll(ROUTE)];
        const expected = text.match(source.entries)?.length ?? 0;
        if (found.length !== expected) {
          throw new Error(
            `${source.file}: read ${found.length} routes of ${expected}: write each as { path: '…', … import('./…') }`,
          );
        }
        for (const [, route = '', specifier = ''] of found) {
          const module = resolveModule(path.resolve(path.dirname(file), specifier));
          const chunk = byModule.get(module);
          if (!chunk) throw new Error(`${source.file}: no chunk for ${specifier} (route '${route}')`);
          const files = new Set<string>();
          collect(chunk, byFile, files);
          const own = [...files].filter((name) => !firstLoad.has(name));
          routes.push({
            path: route.replace(/^\//, ''),
            js: own,
            css: [...new Set(own.flatMap((name) => [...(byFile.get(name)?.viteMetadata?.importedCss ?? [])]))],
          });
        }
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS, source: `${JSON.stringify({ routes }, null, 2)}\n` });
    },
  };
}

/** A chunk and every chunk it imports statically (what loading it loads), by file name. */
function collect(chunk: OutputChunk, byFile: Map<string, OutputChunk>, into: Set<string>) {
  if (into.has(chunk.fileName)) return;
  into.add(chunk.fileName);
  for (const imported of chunk.imports) {
    const next = byFile.get(imported);
    if (next) collect(next, byFile, into);
  }
}

function resolveModule(base: string): string {
  for (const extension of ['.tsx', '.ts']) if (fs.existsSync(base + extension)) return base + extension;
  throw new Error(`No module at ${base}(.tsx|.ts)`);
}
