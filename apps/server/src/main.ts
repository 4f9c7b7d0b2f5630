import { buildApp } from './app.ts';
import { ensureFirstAdmin } from './accounts/first-admin.ts';
import { loadConfig } from './platform/config.ts';
import { openDatabase, type Db } from './platform/db.ts';
import { migrate } from './platform/migrate.ts';

export interface StartServerOptions {
  /**
   * Runs on the migrated database before the app is built and the first admin is ensured (the
   * demo seeds its data here, so no generated admin appears).
   */
  beforeStart?: (db: Db) => Promise<void>;
}

/** Starts the server: database, migrations, first admin, HTTP; closes cleanly on SIGINT/SIGTERM. */
export async function startServer(config = loadConfig(), options: StartServerOptions = {}) {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.dataDir,
  });
  try {
    await migrate(database.db);
    await options.beforeStart?.(database.db);
    // The database closes after every other onClose hook (background jobs flush first).
    const app = await buildApp({
      db: database.db,
      config,
      backgroundJobs: true,
      onClosed: () => database.close(),
    });
    await ensureFirstAdmin(database.db, config, app.log);
    await app.listen({ port: config.port, host: config.host });
    return app;
  } catch (error) {
    await database.close();
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const config = loadConfig();
  startServer(config).then(
    (app) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        app.log.info(`${signal} received: finishing in-flight requests, then closing`);
        // app.close() stops accepting connections, waits for in-flight requests, then runs
        // onClose hooks (background jobs, then the database).
        app.close().then(
          () => process.exit(0),
          (error: unknown) => {
            app.log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
