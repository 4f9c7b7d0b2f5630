import { ErrorBody } from '@vrtc/contract';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { AppInstance } from '../http/app-types.ts';
import { dataDirProblem } from '../config/data-dir.ts';
import type { Db } from '../database/db.ts';
import type { JobMonitor } from './job-monitor.ts';
import { migrationVersions } from '../database/migrate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Readiness, and draining once SIGTERM arrives (main.ts). */
    health: Health;
  }
}

/** Longest /readyz waits for the database before it calls it unreachable. */
const DATABASE_CHECK_TIMEOUT_MS = 2000;

/** How long a DATA_DIR write probe's answer is reused: every balancer probes every few seconds. */
export const STORAGE_CHECK_MAX_AGE_MS = 2000;

/** Writes a small file into `dir`, syncs it to the disk and removes it: what every write needs. */
export async function probeWrite(dir: string): Promise<void> {
  const file = path.join(dir, `.ready-probe-${process.pid}`);
  const handle = await fs.promises.open(file, 'w', 0o600);
  try {
    await handle.writeFile('ready\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rm(file, { force: true });
}

type StorageState = 'ok' | 'full' | 'read_only' | 'unwritable';
interface StorageAnswer {
  at: number;
  state: StorageState;
  /** Why not, in words (absent when ok). */
  reason?: string;
}

/**
 * Whether DATA_DIR can be written right now (a full disk, a file system remounted read-only),
 * probed by a real write and sync, the answer reused for STORAGE_CHECK_MAX_AGE_MS and shared by
 * probes arriving together.
 */
export class StorageCheck {
  private last: StorageAnswer | undefined;
  private running: Promise<StorageAnswer> | undefined;

  constructor(
    private readonly dir: string,
    private readonly now: () => number,
    private readonly write: (dir: string) => Promise<void> = probeWrite,
  ) {}

  async state(): Promise<StorageAnswer> {
    const at = this.now();
    if (this.last && at - this.last.at < STORAGE_CHECK_MAX_AGE_MS) return this.last;
    this.running ??= this.write(this.dir)
      .then(
        (): StorageAnswer => ({ at, state: 'ok' }),
        (error: unknown): StorageAnswer => {
          const { code, reason } = dataDirProblem(error);
          const state: StorageState =
            code === 'ENOSPC' || code === 'EDQUOT'
              ? 'full'
              : code === 'EROFS'
                ? 'read_only'
                : 'unwritable';
          return {
            at,
            state,
            reason: `DATA_DIR ${this.dir} cannot be written: ${reason} (${code})`,
          };
        },
      )
      .finally(() => {
        this.running = undefined;
      });
    this.last = await this.running;
    return this.last;
  }
}

export interface Readiness {
  ready: boolean;
  /** Why not, in one line (absent when ready). */
  reason?: string;
  /** The error code of the answer when not ready: the storage's, or the service's. */
  code?: 'service_unavailable' | 'storage_unavailable';
  checks: {
    draining: boolean;
    database: 'ok' | 'unreachable' | 'timeout' | 'not_migrated';
    /** DATA_DIR (builds, the signing secret, the embedded database) takes a write. */
    storage: StorageState;
    background_jobs: 'ok' | 'off' | 'stalled' | 'not_checked';
    /** PostgreSQL: whether this process hears other processes' device changes (informational). */
    device_notifications: 'listening' | 'down' | 'not_used';
  };
}

/**
 * Liveness and readiness of this process, for a balancer or a process manager.
 *
 * - Alive (`/healthz`): the event loop answers. Never touches the database, so a database outage
 *   does not get every process restarted at once.
 * - Ready (`/readyz`): it can do useful work: not draining, the database answers within 2 s and
 *   holds every migration this build knows (a newer build's extra migrations are fine: old and new
 *   nodes run side by side during a rolling upgrade), DATA_DIR takes a write (not full, not
 *   read-only), and the background jobs are not stalled.
 *
 * Draining starts on SIGTERM (main.ts): from then on /readyz answers 503, and every answer carries
 * `Connection: close`, so a balancer's kept-alive connections end with the request they carry
 * instead of meeting a closed socket under their next one.
 */
export class Health {
  private drainingSince: number | undefined;
  private readonly knownMigrations = migrationVersions();

  constructor(
    private readonly options: {
      db: Db;
      jobs: JobMonitor;
      /** True while device-change notifications are heard (or not needed). */
      notificationsListening: () => boolean;
      usesNotifications: boolean;
      storage: StorageCheck;
    },
  ) {}

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }

  async readiness(): Promise<Readiness> {
    const { jobs, usesNotifications, notificationsListening } = this.options;
    const checks: Readiness['checks'] = {
      draining: this.draining,
      database: 'ok',
      storage: 'ok',
      background_jobs: 'not_checked',
      device_notifications: !usesNotifications
        ? 'not_used'
        : notificationsListening()
          ? 'listening'
          : 'down',
    };
    if (this.draining) {
      return { ready: false, reason: 'draining: the server is shutting down', checks };
    }
    const [database, storage] = await Promise.all([
      this.checkDatabase(),
      this.options.storage.state(),
    ]);
    checks.database = database;
    checks.storage = storage.state;
    if (checks.database !== 'ok') {
      return { ready: false, reason: DATABASE_REASONS[checks.database], checks };
    }
    if (storage.state !== 'ok') {
      return { ready: false, code: 'storage_unavailable', reason: storage.reason, checks };
    }
    const state = jobs.state();
    checks.background_jobs = state.status;
    if (state.status === 'stalled') {
      return {
        ready: false,
        reason: `background job ${state.job} has not finished a run for ${Math.round(state.silentForMs / 1000)} s`,
        checks,
      };
    }
    return { ready: true, checks };
  }

  private async checkDatabase(): Promise<'ok' | 'unreachable' | 'timeout' | 'not_migrated'> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), DATABASE_CHECK_TIMEOUT_MS);
    });
    const check = sql<{ version: string }>`SELECT version FROM schema_migrations`
      .execute(this.options.db)
      .then(({ rows }) => {
        const applied = new Set(rows.map((row) => row.version));
        return this.knownMigrations.every((version) => applied.has(version))
          ? ('ok' as const)
          : ('not_migrated' as const);
      })
      // No schema_migrations table at all is a database nobody migrated.
      .catch((error: { code?: string }) =>
        error.code === '42P01' ? ('not_migrated' as const) : ('unreachable' as const),
      );
    try {
      return await Promise.race([check, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

const DATABASE_REASONS = {
  unreachable: 'the database cannot be reached',
  timeout: `the database did not answer within ${DATABASE_CHECK_TIMEOUT_MS / 1000} s`,
  not_migrated: 'the database lacks migrations this build needs',
} as const;

const ReadyBody = Type.Object({
  status: Type.Literal('ready'),
  checks: Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean()])),
});

/**
 * GET /healthz and GET /readyz, outside /v1 and outside the browser scope (no session, no
 * security headers). Probes come every few seconds from every balancer: they write no log line
 * and no latency sample (`hotPath`).
 */
export function healthRoutes(app: AppInstance, health: Health) {
  app.get(
    '/healthz',
    {
      config: { hotPath: 'probe' },
      schema: {
        tags: ['operations'],
        security: [],
        description:
          'Liveness: 200 while the process answers at all. Never touches the database, so a ' +
          'database outage does not get every process restarted.',
        response: { 200: Type.Object({ status: Type.Literal('alive') }) },
      },
    },
    (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'alive' as const };
    },
  );
  app.get(
    '/readyz',
    {
      config: { hotPath: 'probe' },
      schema: {
        tags: ['operations'],
        security: [],
        description:
          'Readiness: 200 when this process can take work (the database answers and is ' +
          'migrated, DATA_DIR takes a write, background jobs run). 503 with the reason ' +
          'otherwise (storage_unavailable when DATA_DIR cannot be written, else ' +
          'service_unavailable), and from SIGTERM on while the process drains.',
        response: { 200: ReadyBody, 503: ErrorBody },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const readiness = await health.readiness();
      if (!readiness.ready) {
        return reply.status(503).send({
          error: readiness.code ?? 'service_unavailable',
          message: `Not ready: ${readiness.reason}`,
          details: readiness.checks,
        });
      }
      return { status: 'ready' as const, checks: readiness.checks };
    },
  );
}
