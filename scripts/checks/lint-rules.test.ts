import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of eslint.config.js are only worth having if they fire. Each case lints
 * an import that breaks one (as text at the path it would have) and expects that rule's error;
 * the last lints two fixture files that import each other.
 */
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root, ignore: false });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('lint boundaries', () => {
  it.each([
    {
      breach: 'a web feature importing another feature',
      file: 'apps/web/src/features/devices/probe.ts',
      code: "import { SessionsPage } from '../sessions/SessionsPage';\nexport const probe = SessionsPage;\n",
    },
    {
      breach: 'a web feature importing the app shell',
      file: 'apps/web/src/features/devices/probe.ts',
      code: "import { App } from '../../app/App';\nexport const probe = App;\n",
    },
    {
      breach: 'shared web code importing a feature',
      file: 'apps/web/src/components/probe.ts',
      code: "import { DevicesPage } from '../features/devices/DevicesPage';\nexport const probe = DevicesPage;\n",
    },
    {
      breach: "the server's platform importing a domain",
      file: 'apps/server/src/platform/service/probe.ts',
      code: "import * as devices from '../../devices/devices.service.ts';\nexport const probe = devices;\n",
    },
    {
      breach: 'a lower platform layer importing a higher one (database → http)',
      file: 'apps/server/src/platform/database/probe.ts',
      code: "import { registerRoute } from '../http/routes.ts';\nexport const probe = registerRoute;\n",
    },
    {
      breach: 'a server domain importing one it may not use (devices → sessions)',
      file: 'apps/server/src/devices/probe.ts',
      code: "import * as sessions from '../sessions/sessions.service.ts';\nexport const probe = sessions;\n",
    },
    {
      breach: 'a server domain importing upwards (auth → accounts)',
      file: 'apps/server/src/auth/probe.ts',
      code: "import * as accounts from '../accounts/accounts.service.ts';\nexport const probe = accounts;\n",
    },
    {
      breach: 'a sink importing a domain (events → sessions)',
      file: 'apps/server/src/events/probe.ts',
      code: "import * as sessions from '../sessions/sessions.service.ts';\nexport const probe = sessions;\n",
    },
  ])('refuses $breach', async ({ file, code }) => {
    expect(await ruleIds(code, file)).toContain('import-x/no-restricted-paths');
  });

  it('lets a feature import shared code and its own files', async () => {
    const code =
      "import { DataTable } from '../../components/DataTable';\nimport { DevicesPage } from './DevicesPage';\nexport const probe = [DataTable, DevicesPage];\n";
    expect(await ruleIds(code, 'apps/web/src/features/devices/probe.ts')).toEqual([]);
  });

  it('lets a domain import the domains it may use, a sink and the platform', async () => {
    const code =
      "import { endActiveSession } from '../sessions/session-end.ts';\nimport type { LivePublisher } from '../events/live-events.ts';\nimport { AppError } from '../platform/service/errors.ts';\nexport const probe: [unknown, LivePublisher | undefined, unknown] = [endActiveSession, undefined, AppError];\n";
    expect(await ruleIds(code, 'apps/server/src/headset/probe.ts')).toEqual([]);
  });

  it('refuses an import cycle', async () => {
    const [result] = await eslint.lintFiles([
      path.join(import.meta.dirname, 'fixtures/cycle/first.ts'),
    ]);
    expect(result?.messages.map((message) => message.ruleId)).toContain('import-x/no-cycle');
  });
});
