import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** A `graphql(`…`)` call of the client preset (a template literal without substitutions). */
const CALL = /\bgraphql\(\s*`((?:[^`$\\]|\$(?!\{))*)`\s*\)/g;
const ANY_CALL = /\bgraphql\(/;
/** The preset's map from a document's source to its generated document: `"<source>": types.<Name>,`. */
const MAP_ENTRY = /^\s*("(?:[^"\\]|\\.)*"): types\.(\w+),$/gm;
/** A generated document: `export const <Name> = {…} as unknown as DocumentNode<…>;`, one line each. */
const DOCUMENT = /^export const (\w+) = (\{.*\}) as unknown as DocumentNode<.*>;$/gm;
const GQL_IMPORT = /^import \{ graphql \} from '(?:\.\.?\/)+gql';\n/m;

/** Each document's source, as written in a screen, mapped to its generated AST (JSON text). */
function generatedDocuments(generated: string): Map<string, string> {
  const gql = fs.readFileSync(path.join(generated, 'gql.ts'), 'utf8');
  const graphql = fs.readFileSync(path.join(generated, 'graphql.ts'), 'utf8');
  const astOf = new Map([...graphql.matchAll(DOCUMENT)].map(([, name = '', ast = '']) => [name, ast]));
  const documents = new Map<string, string>();
  for (const [, source = '""', name = ''] of gql.matchAll(MAP_ENTRY)) {
    const ast = astOf.get(name);
    if (!ast) throw new Error(`src/gql/graphql.ts has no ${name}: run the codegen again`);
    documents.set(JSON.parse(source) as string, ast);
  }
  return documents;
}

/**
 * Builds put each GraphQL document in the module that writes it, as the AST GraphQL Code Generator
 * made of it, instead of the client preset's `graphql()` looking it up at run time in one map of every
 * document of the app (a chunk every screen loaded, of every screen's documents). What the preset's
 * Babel plugin does, without Babel; the types still come from src/gql/ as before.
 */
export function inlineDocuments(): Plugin {
  let generated = '';
  let documents = new Map<string, string>();
  return {
    name: 'tessera-inline-graphql-documents',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      generated = path.join(config.root, 'src', 'gql');
    },
    buildStart() {
      documents = generatedDocuments(generated);
    },
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || id.startsWith(generated) || !GQL_IMPORT.test(code)) return null;
      const inlined = code.replace(CALL, (_call, source: string) => {
        const ast = documents.get(source);
        if (!ast) throw new Error(`${id}: a graphql() document that src/gql/ does not have: run the codegen again`);
        return `(${ast})`;
      });
      if (ANY_CALL.test(inlined)) throw new Error(`${id}: a graphql() call that could not be inlined`);
      return { code: inlined.replace(GQL_IMPORT, ''), map: null };
    },
  };
}
