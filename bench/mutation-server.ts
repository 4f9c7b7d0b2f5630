import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * One server of `npm run bench:audit`, in a process of its own: the application of the checkout
 * at `--root` (this one, or the commit before the audit log), on a fresh database (`--database`:
 * `pglite`, or a PostgreSQL URL of a scratch database), with organisations that each have one
 * console account and the VR users it renames. Sends (IPC) the url and each organisation's token
 * and paths when listening; answers an IPC `cpu`
 * message with its process's CPU time, so the benchmark can give CPU per request per variant.
 * It imports the checkout's own modules by path, so each variant runs its own code and its own
 * dependencies.
 */

const args = new Map<string, string>();
for (let at = 2; at < process.argv.length; at += 2) {
  args.set(process.argv[at]!.replace(/^--/, ''), process.argv[at + 1]!);
}
const root = path.resolve(args.get('root') ?? path.join(import.meta.dirname, '..'));
const database = args.get('database') ?? 'pglite';
const VR_USERS = 100;
/** Organisations, each with its own account and VR users: each has its own audit chain. */
const ORGANIZATIONS = 10;

export interface Tenant {
  token: string;
  paths: string[];
}

const load = <T>(file: string) =>
  import(pathToFileURL(path.join(root, 'apps/server/src', file)).href) as Promise<T>;

interface Modules {
  app: { buildApp: (options: Record<string, unknown>) => Promise<AppLike> };
  auth: { issueToken: (ctx: unknown, accountId: string) => Promise<{ token: string }> };
  clock: { systemClock: unknown };
  config: { testConfig: (overrides: Record<string, unknown>) => Record<string, unknown> };
  db: { openDatabase: (options: Record<string, unknown>) => Promise<DatabaseLike> };
  migrate: { migrate: (db: unknown) => Promise<unknown> };
}
interface AppLike {
  listen(options: { host: string; port: number }): Promise<unknown>;
  server: { address(): unknown };
  close(): Promise<unknown>;
}
interface Inserting {
  values(rows: unknown): Inserting;
  returning(columns: string): Inserting;
  executeTakeFirstOrThrow(): Promise<{ id: string }>;
  execute(): Promise<{ id: string }[]>;
}
interface DatabaseLike {
  db: { insertInto(table: string): Inserting };
  close(): Promise<void>;
}

async function main() {
  const modules: Modules = {
    app: await load('app.ts'),
    auth: await load('auth/auth.service.ts'),
    clock: await load('platform/service/clock.ts'),
    config: await load('platform/config/config.ts'),
    db: await load('platform/database/db.ts'),
    migrate: await load('platform/database/migrate.ts'),
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-audit-'));
  const postgres = database !== 'pglite';
  const handle = await modules.db.openDatabase(
    postgres ? { databaseUrl: database } : { pgliteDir: dataDir },
  );
  await modules.migrate.migrate(handle.db);
  const config = modules.config.testConfig({
    dataDir,
    databaseUrl: postgres ? database : undefined,
    logLevel: 'info',
    signingSecret: 'bench',
  });
  const tenants: Tenant[] = [];
  for (let n = 1; n <= ORGANIZATIONS; n += 1) {
    const organization = await handle.db
      .insertInto('organizations')
      .values({ name: `Bench organisation ${n}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const account = await handle.db
      .insertInto('accounts')
      .values({
        email: `bench-staff-${n}@example.com`,
        password_hash: 'not-used',
        role: 'client',
        organization_id: organization.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const vrUsers = await handle.db
      .insertInto('vr_users')
      .values(
        Array.from({ length: VR_USERS }, (_, i) => ({
          organization_id: organization.id,
          name: `Trainee ${i + 1}`,
        })),
      )
      .returning('id')
      .execute();
    const { token } = await modules.auth.issueToken(
      { db: handle.db, clock: modules.clock.systemClock, config },
      account.id,
    );
    tenants.push({ token, paths: vrUsers.map((vrUser) => `/v1/vr-users/${vrUser.id}`) });
  }
  const app = await modules.app.buildApp({
    db: handle.db,
    config,
    backgroundJobs: true,
    logger: { level: 'info', file: '/dev/null' },
    onClosed: async () => {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.(process.cpuUsage());
    if (message === 'close') void app.close().then(() => process.exit(0));
  });
  process.send?.({ url, tenants });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
