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
 * The import boundaries (docs/ARCHITECTURE.md, "Dependency rules"), enforced rather than agreed:
 * - a web feature imports no other feature, nor the app shell (app/); shared web code
 *   (components, lib, api, i18n, auth) imports no feature;
 * - the server's platform/ imports no domain, and its layers look down only:
 *   config < database < service < http < ops;
 * - a server domain imports only the domains SERVER_DOMAIN_USES lists for it, and any sink.
 */
const webFeatures = dirsOf('apps/web/src/features');
const serverDomains = dirsOf('apps/server/src').filter((dir) => dir !== 'platform');

/**
 * Which server domain may import which (besides platform/ and the sinks): what each one imports,
 * no more, so a new arrow between domains is a choice made here. The direction runs from the edges
 * (the headset protocol, the organisation figures) down to identity (auth); a domain absent from
 * this table fails the lint run, so a new one is placed on purpose.
 */
export const SERVER_DOMAIN_USES = {
  headset: ['auth', 'devices', 'sessions'],
  lms: ['auth', 'headset', 'sessions'],
  organizations: ['auth', 'devices', 'stats'],
  stats: ['auth', 'devices', 'qualifications'],
  sessions: ['auth', 'devices'],
  devices: ['auth'],
  access: ['auth'],
  content: ['auth'],
  'vr-users': ['auth'],
  accounts: ['auth'],
  downloads: ['auth'],
  integrations: ['auth'],
  qualifications: ['auth'],
  sso: ['auth', 'accounts'],
  scim: ['auth', 'accounts'],
  auth: [],
};
/**
 * Sinks: every domain may tell them what happened; they import no domain but auth (who did it).
 * events: the console's live streams; audit: the audit log (docs/logging.md); outbox: the events
 * integrations deliver (docs/integrations.md).
 */
export const SERVER_SINKS = ['events', 'audit', 'outbox'];
/** platform/'s layers, lowest first: each imports only those before it. */
export const PLATFORM_LAYERS = ['config', 'database', 'service', 'http', 'ops'];

for (const domain of serverDomains) {
  if (!(domain in SERVER_DOMAIN_USES) && !SERVER_SINKS.includes(domain)) {
    throw new Error(
      `apps/server/src/${domain}/ is a new server domain: add it to SERVER_DOMAIN_USES (or SERVER_SINKS) in eslint.config.js and to docs/ARCHITECTURE.md`,
    );
  }
}

const serverDomainZones = serverDomains.flatMap((domain) => {
  const allowed = SERVER_SINKS.includes(domain)
    ? ['auth']
    : [...SERVER_DOMAIN_USES[domain], ...SERVER_SINKS];
  return serverDomains
    .filter((other) => other !== domain && !allowed.includes(other))
    .map((other) => ({
      target: `./apps/server/src/${domain}`,
      from: `./apps/server/src/${other}`,
      message: SERVER_SINKS.includes(domain)
        ? `A sink (${domain}/) imports no domain but auth.`
        : `${domain}/ may use ${allowed.join(', ')}; not ${other}/ (docs/ARCHITECTURE.md, "Dependency rules"). Move what both need down, or tell a sink.`,
    }));
});

const platformLayerZones = PLATFORM_LAYERS.flatMap((layer, index) =>
  PLATFORM_LAYERS.slice(index + 1).map((higher) => ({
    target: `./apps/server/src/platform/${layer}`,
    from: `./apps/server/src/platform/${higher}`,
    message: `platform/${layer} does not import platform/${higher}: the layers look down only (${PLATFORM_LAYERS.join(' < ')}).`,
  })),
);

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
    message:
      'platform/ does not import a domain: the domain declares what it needs and app.ts hands it in.',
  })),
  ...serverDomainZones,
  ...platformLayerZones,
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
