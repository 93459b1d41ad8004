// @ts-check
// The lint rule set (docs/decisions.md, "Areas as modules (issue 28)", Lint): @eslint/js recommended and
// typescript-eslint's recommendedTypeChecked on every TypeScript file, with the few exceptions below,
// each saying why. `npm run lint` runs it and `.ci/run` fails on any finding.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The Node globals the plain JavaScript files use (TypeScript files get them from @types/node, and
// typescript-eslint turns `no-undef` off there).
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'require',
    'module',
    '__dirname',
    '__filename',
    'Buffer',
    'URL',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'performance',
    'fetch',
    'AbortController',
    'TextEncoder',
    'TextDecoder',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'src/explorer/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An `async` function without `await` still turns a synchronous throw into a rejection, and
      // callers rely on that (`.catch`, `rejects.toThrow`, a route handler's promise): removing
      // `async` to satisfy the rule would change behaviour, so the rule is off.
      '@typescript-eslint/require-await': 'off',
      // `_`-prefixed names are the house's way of saying "unused on purpose" (an interface's
      // argument a stand-in ignores, a rest sibling dropped from a copy).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Tests read JSON and GraphQL answers as `any` on purpose (`res.json()`, `body.data.payout.id`):
    // typing every answer would restate the OpenAPI document and the schema, which the suite already
    // checks the answers against. Every other rule applies to tests as to the code.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The plain JavaScript files (launchers, jest configs, bench drivers) are outside the TypeScript
    // project: they get the untyped rules only, as CommonJS or modules with Node's globals.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: nodeGlobals },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    // CommonJS files load modules with require: that is what they are.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
