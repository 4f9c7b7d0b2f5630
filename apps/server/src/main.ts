import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ensureFirstAdmin } from './accounts/first-admin.ts';
import type { AppInstance } from './platform/http/app-types.ts';
import { startBackupSocket, type BackupSocket } from './platform/ops/backup-socket.ts';
import { loadConfig, type Config } from './platform/config/config.ts';
import { prepareDataDir } from './platform/config/data-dir.ts';
import { openDatabase, type DatabaseHandle, type Db } from './platform/database/db.ts';
import { keepRequestsYoung } from './platform/ops/heap.ts';
import { startMetricsServer, type MetricsServer } from './platform/ops/metrics.ts';
import { migrate } from './platform/database/migrate.ts';

export interface StartServerOptions {
  /**
   * Runs on the migrated database before the app is built and the first admin is ensured (the
   * demo seeds its data here, so no generated admin appears).
   */
  beforeStart?: (db: Db) => Promise<void>;
}

export interface RunningServer {
  app: AppInstance;
  database: DatabaseHandle;
  /** GET /metrics, when METRICS_PORT is set. */
  metrics?: MetricsServer;
}

/**
 * Starts the server: V8 tuned for held calls (keepRequestsYoung, decision 036), data directory,
 * database, migrations, first admin, HTTP, then the metrics endpoint (METRICS_PORT) and, on the
 * embedded database, the backup socket (decision 004).
 */
export async function startServer(
  config: Config = loadConfig(),
  options: StartServerOptions = {},
): Promise<RunningServer> {
  keepRequestsYoung();
  // Uploaded builds and the signing secret live there whatever the database: refuse to start
  // with a directory the server could not write, rather than fail on the first upload.
  prepareDataDir(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.dataDir,
  });
  let metrics: MetricsServer | undefined;
  let backupSocket: BackupSocket | undefined;
  const closeSidecars = async () => {
    await Promise.all([metrics?.close(), backupSocket?.close()]);
  };
  try {
    await migrate(database.db);
    await options.beforeStart?.(database.db);
    // The database closes after every other onClose hook (background jobs flush first).
    const app = await buildApp({
      db: database.db,
      config,
      backgroundJobs: true,
      notifications: database.notifications,
      urgentDb: database.urgentDb,
      poolStats: () => database.poolStats(),
      onClosed: async () => {
        await closeSidecars();
        await database.close();
      },
    });
    await ensureFirstAdmin(database.db, config, app.log);
    await app.listen({ port: config.port, host: config.host });
    if (config.metricsPort !== undefined) {
      metrics = await startMetricsServer(app.metrics, {
        host: config.host,
        port: config.metricsPort,
        log: app.log,
      });
    }
    backupSocket = await startBackupSocket(database, config.dataDir, app.log);
    return { app, database, metrics };
  } catch (error) {
    await closeSidecars();
    await database.close();
    throw error;
  }
}

/** Longest a shutdown may take before the process exits anyway (a stuck request, a hung query). */
const SHUTDOWN_DEADLINE_MS = 30_000;

/**
 * The production entry (`node apps/server/dist/main.js`, and `npm start` in its own process):
 * reads the configuration from the environment, starts the server, drains and exits on SIGINT/SIGTERM, and exits non-zero with one log line when
 * the embedded database dies, so a process manager restarts it instead of leaving a server that
 * answers 503.
 */
export async function runServer(given?: Config): Promise<RunningServer> {
  let config: Config;
  let server: RunningServer;
  try {
    // A bad environment variable ends the process with the one message that names it.
    config = given ?? loadConfig();
    server = await startServer(config);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  const { app, database } = server;
  let stopping = false;
  const stop = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    app.health.startDraining();
    setTimeout(() => {
      app.log.error(`shutdown took longer than ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting now`);
      process.exit(exitCode || 1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    // app.close() stops accepting connections, waits for in-flight requests (closing each
    // connection as it goes idle, app.ts), then runs onClose hooks (background jobs, then the
    // database).
    app.close().then(
      () => process.exit(exitCode),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // SIGTERM (systemd, a rolling restart) drains first: /readyz answers 503 and every answer
  // closes its connection for DRAIN_DELAY_MS while the server still works, so a balancer that
  // polls /readyz takes it out before it stops listening. SIGINT (Ctrl+C) closes at once.
  let draining = false;
  process.on('SIGTERM', () => {
    if (stopping || draining) return;
    draining = true;
    app.health.startDraining();
    const delay = config.drainDelayMs;
    app.log.info(
      delay > 0
        ? `SIGTERM received: draining (/readyz answers 503) for ${delay} ms, then finishing in-flight requests and closing`
        : 'SIGTERM received: finishing in-flight requests, then closing',
    );
    setTimeout(() => stop(0), delay);
  });
  process.on('SIGINT', () => {
    if (!stopping) app.log.info('SIGINT received: finishing in-flight requests, then closing');
    stop(0);
  });
  database.onLost((error) => {
    app.log.fatal(
      `${error.message}; the server cannot go on without its database and exits (a process ` +
        'manager restarts it; the data on disk is intact up to the last committed write)',
    );
    stop(1);
  });
  return server;
}

// Started as the entry (`node apps/server/dist/main.js`), not imported. Compared as real paths: a
// release directory reached through a symbolic link (/opt/vrtc → /opt/vrtc-1.4) is still this file.
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runServer();
}
