import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed operations from the server's schema (../schema.graphql, written by `npm run schema`): every
 * `graphql(`…`)` document under src/ is checked against it and gets its result and variable types in
 * src/gql/ (generated, not committed). A schema change that breaks a screen fails `npm run build`.
 */
const config: CodegenConfig = {
  schema: '../schema.graphql',
  documents: ['src/**/*.{ts,tsx}', '!src/gql/**/*'],
  ignoreNoDocuments: true,
  silent: true,
  generates: {
    './src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false },
        defaultScalarType: 'unknown',
        scalars: { DateTimeISO: 'string', JSONObject: 'Record<string, unknown>' },
      },
    },
  },
};

export default config;
