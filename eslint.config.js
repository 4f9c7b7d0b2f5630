import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const root = import.meta.dirname;
const dirsOf = (dir) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * The import boundaries (docs/decisions: one-way imports), enforced rather than agreed:
 * - a web feature imports no other feature, nor the app shell (app/); shared web code
 *   (components, lib, api, i18n, auth) imports no feature;
 * - the server's platform/ imports no domain: domains depend on the platform, never the reverse.
 */
const webFeatures = dirsOf('apps/web/src/features');
const serverDomains = dirsOf('apps/server/src').filter((dir) => dir !== 'platform');
const boundaryZones = [
  ...webFeatures.map((feature) => ({
    target: `./apps/web/src/features/${feature}`,
    from: './apps/web/src/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature: move what both need to src/ (shared).',
  })),
  {
    target: './apps/web/src/features',
    from: './apps/web/src/app',
    message: 'Features do not import the app shell; the shell imports them.',
  },
  ...['components', 'lib', 'api', 'i18n', 'auth'].map((shared) => ({
    target: `./apps/web/src/${shared}`,
    from: './apps/web/src/features',
    message: 'Shared code does not import a feature.',
  })),
  ...serverDomains.map((domain) => ({
    target: './apps/server/src/platform',
    from: `./apps/server/src/${domain}`,
    message: 'platform/ does not import a domain: declare the interface it needs in platform/.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-e2e/**',
      'data/**',
      '**/screenshots/**',
      // Fixtures that break the rules on purpose: scripts/checks/lint-rules.test.ts lints them.
      'scripts/checks/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without it the plugin reads imported TypeScript files with the JavaScript parser, fails
      // quietly, and no-cycle never sees a cycle (scripts/checks/lint-rules.test.ts).
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
