// @ts-check
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * Dependency boundaries (docs/ARCHITECTURE.md, ADR 0019), checked by core ESLint's no-restricted-imports: contract
 * imports nothing of ours, the client core only the contract; web and server never import each other, nor
 * the console. In the web app shared <- domains <- features <- app: shared imports nothing above it, a
 * domain (trading, market) imports only shared, a feature imports domains and shared but no other feature,
 * and app imports all. The console has no domains: shared <- features <- app. Cross-folder imports go
 * through the `@/` alias, so these patterns see every one of them.
 */
const featuresDir = 'apps/web/src/features';
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
const domainsDir = 'apps/web/src/domains';
const domains = existsSync(domainsDir)
  ? readdirSync(domainsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
const consoleFeaturesDir = 'apps/console/src/features';
const consoleFeatures = existsSync(consoleFeaturesDir)
  ? readdirSync(consoleFeaturesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
/** The console's own layers repeat this pattern: a later rule for the same file replaces an earlier one. */
const consoleApart = {
  group: ['**/apps/server/**', '@kabuto/server', '@kabuto/server/*', '**/apps/web/**', '@kabuto/web'],
  message: 'the console imports neither server nor web code',
};
const restricted = (...patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});
const escapeFolder = {
  group: ['../../*', '../../../*'],
  message: 'Import across folders through the @/ alias so that the boundaries below can be checked.',
};
const boundaries = [
  {
    files: ['packages/contract/**/*.ts'],
    rules: restricted({
      group: ['**/apps/**', '@kabuto/server', '@kabuto/web'],
      message: 'contract imports nothing of ours',
    }),
  },
  {
    files: ['packages/client/**/*.ts'],
    rules: restricted({
      group: ['**/apps/**', '@kabuto/server', '@kabuto/server/*', '@kabuto/web', '@kabuto/console'],
      message: 'the client core imports only the contract: the apps build on it, not it on them',
    }),
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: restricted({
      group: ['**/apps/server/**', '@kabuto/server', '@kabuto/server/*'],
      message: 'web must not import server code',
    }),
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: restricted({
      group: ['**/apps/web/**', '@kabuto/web', '@kabuto/web/*', '**/apps/console/**', '@kabuto/console'],
      message: 'server must not import web or console code',
    }),
  },
  {
    files: ['apps/console/**/*.{ts,tsx}'],
    rules: restricted(consoleApart),
  },
  {
    files: ['apps/console/src/shared/**/*.{ts,tsx}', 'apps/console/src/locales/**/*.ts'],
    rules: restricted(consoleApart, escapeFolder, {
      group: ['@/features/*', '@/app/*'],
      message: 'shared code must not depend on features or the app layer',
    }),
  },
  ...consoleFeatures.map((name) => ({
    files: [`${consoleFeaturesDir}/${name}/**/*.{ts,tsx}`],
    rules: restricted(
      consoleApart,
      escapeFolder,
      { group: ['@/app/*'], message: 'features must not depend on the app layer' },
      {
        group: ['@/features/*', `!@/features/${name}`, `!@/features/${name}/*`],
        message: 'A feature must not import another feature; lift shared code into src/shared.',
      },
    ),
  })),
  {
    files: ['apps/web/src/shared/**/*.{ts,tsx}', 'apps/web/src/locales/**/*.ts'],
    rules: restricted(escapeFolder, {
      group: ['@/domains/*', '@/features/*', '@/app/*'],
      message: 'shared code must not depend on domains, features or the app layer',
    }),
  },
  ...domains.map((name) => ({
    files: [`${domainsDir}/${name}/**/*.{ts,tsx}`],
    rules: restricted(
      escapeFolder,
      {
        group: ['@/features/*', '@/app/*'],
        message: 'a domain must not depend on features or the app layer',
      },
      {
        group: ['@/domains/*', `!@/domains/${name}`, `!@/domains/${name}/*`],
        message: 'A domain imports only shared code; lift what two domains need into src/shared.',
      },
    ),
  })),
  ...features.map((name) => ({
    files: [`${featuresDir}/${name}/**/*.{ts,tsx}`],
    rules: restricted(
      escapeFolder,
      { group: ['@/app/*'], message: 'features must not depend on the app layer' },
      {
        group: ['@/features/*', `!@/features/${name}`, `!@/features/${name}/*`],
        message: 'A feature must not import another feature; lift shared code into src/shared.',
      },
    ),
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins and handlers are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/console/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // A test that cannot run here says so: apps/server/src/test/needs.ts skips it, counts it and names it.
    files: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].flatMap((object) =>
          ['skipIf', 'runIf'].map((property) => ({
            object,
            property,
            message: 'a quiet skip: use describeNeeding (apps/server/src/test/needs.ts), which reports it',
          })),
        ),
      ],
    },
  },
  ...boundaries,
);
