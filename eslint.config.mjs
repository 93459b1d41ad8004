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
  { ignores: ['dist/**', '**/node_modules/**', 'coverage/**', 'src/explorer/**', '.data/**', 'dashboard/src/gql/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // A disable comment that no longer disables anything is a finding too (ESLint's default only warns).
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An `async` function without `await` still turns a synchronous throw into a rejection, and
      // callers rely on that (`.catch`, `rejects.toThrow`, a route handler's promise): removing
      // `async` to satisfy the rule would change behaviour, so the rule is off.
      '@typescript-eslint/require-await': 'off',
      // A method handed on without its object loses `this`; static methods are exempt because the
      // GraphQL mappers (`.map(Payment.from)`, 34 call sites) are static functions of their
      // argument: no static method in src reads `this` (test/architecture.test.ts checks it), and
      // an arrow at each call site would say nothing more.
      '@typescript-eslint/unbound-method': ['error', { ignoreStatic: true }],
      // A promise may be rejected with what a library failed with, unknown as caught, as only-throw-error
      // already allows for `throw` (its default): a test helper passes graphql-ws's error on as it came.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
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
    // Each CLI command loads what it needs when it runs (`require` in its action, typed with
    // `typeof import(…)`), so a command that only reads opens the database and nothing else; an
    // `import()` would make every action's loading asynchronous and, under ts-node and jest, load
    // the modules as ECMAScript modules.
    files: ['src/cli/**'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The list of areas loads a face's module when that surface is built (src/areas.ts, area()):
    // the database layer and the CLI read the list for the entities and must not load the faces.
    files: ['src/areas.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Each area adds its DataLoaders to the request's `Loaders` by declaration merging
    // (`interface Loaders extends PayoutLoaders {}`), which is an interface extending one other.
    files: ['src/graphql/**/*.loaders.ts'],
    rules: { '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }] },
  },
  {
    // Each area adds its own error codes to `ErrorCode` by declaration merging
    // (`interface AreaErrorCodes extends PayoutsErrors {}`), an interface extending one other.
    files: ['src/domain/**/*.errors.ts'],
    rules: { '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }] },
  },
  {
    // The OpenAPI example builder walks JSON Schema documents, which are untyped JSON: its schemas
    // are `Record<string, any>` on purpose, as the tests' answers are.
    files: ['src/http/openapi-examples.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
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
