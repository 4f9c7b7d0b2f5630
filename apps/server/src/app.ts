import fs from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { authRoutes } from './auth/auth.routes.ts';
import { requireUser } from './auth/auth.guard.ts';
import type { AppInstance } from './platform/app-types.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import type { ServiceContext } from './platform/context.ts';
import type { Db } from './platform/db.ts';
import { DeviceCache } from './headset/device-cache.ts';
import { DeviceEvents } from './headset/device-events.ts';
import { apiNotFound, registerErrorHandling } from './platform/http-errors.ts';
import { validatorCompiler } from './platform/validation.ts';
import { vrUsersRoutes } from './vr-users/vr-users.routes.ts';
import { organizationsRoutes } from './organizations/organizations.routes.ts';
import { accountsRoutes } from './accounts/accounts.routes.ts';
import { statsRoutes } from './stats/stats.routes.ts';
import {
  enrollmentCodeRoutes,
  headsetRoutes,
  startHeadsetBackgroundJobs,
} from './headset/headset.routes.ts';
import { contentRoutes } from './content/content.routes.ts';
import { scenarioTreeRoutes } from './content/scenario-tree.routes.ts';
import { accessRoutes } from './access/access.routes.ts';
import {
  downloadFileRoutes,
  downloadsAdminRoutes,
  downloadsClientRoutes,
} from './downloads/downloads.routes.ts';
import { devicesRoutes } from './devices/devices.routes.ts';
import { adminDevicesRoutes } from './devices/devices.admin.routes.ts';
import { sessionsRoutes } from './sessions/sessions.routes.ts';

export interface AppOptions {
  db: Db;
  config: Config;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Run the session sweeper and the last-seen flusher (main.ts does; tests drive them by hand). */
  backgroundJobs?: boolean;
  /**
   * Runs after every other onClose hook (Fastify runs them last-registered first), e.g. closing
   * the database once background jobs have flushed.
   */
  onClosed?: () => Promise<void>;
  /**
   * PostgreSQL connection string of `db` (default: config.databaseUrl). With it, each process
   * LISTENs for device changes made by any process, so its device cache stays coherent; without
   * it (PGlite: one process) invalidation stays in-process.
   */
  databaseUrl?: string;
}

/** Console routes that authenticate by other means (signed URLs) or not at all. */
const publicRouteModules: Array<(app: AppInstance, ctx: ServiceContext) => void> = [
  downloadFileRoutes,
];
/** Routes for any signed-in account, acting on the caller's own organisation. */
const clientRouteModules = [
  vrUsersRoutes,
  enrollmentCodeRoutes,
  devicesRoutes,
  sessionsRoutes,
  scenarioTreeRoutes,
  downloadsClientRoutes,
];
/** Routes under /v1/admin, for the admin role only. */
const adminRouteModules: Array<(app: AppInstance, ctx: ServiceContext) => void> = [
  adminDevicesRoutes,
  contentRoutes,
  accessRoutes,
  downloadsAdminRoutes,
  organizationsRoutes,
  accountsRoutes,
  statsRoutes,
];

/** Builds the HTTP application without listening, so tests can call `app.inject`. */
export async function buildApp(options: AppOptions): Promise<AppInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    // A hop count trusts that many proxies in front (Fastify's types only take the function form).
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
  }).withTypeProvider<TypeBoxTypeProvider>();
  const { onClosed } = options;
  if (onClosed) app.addHook('onClose', () => onClosed());

  const clock = options.clock ?? systemClock;
  const deviceEvents = new DeviceEvents(new DeviceCache(() => clock.now().getTime()), {
    databaseUrl: options.databaseUrl ?? config.databaseUrl,
    log: app.log,
  });
  app.addHook('onClose', () => deviceEvents.close());
  app.decorate('deviceEvents', deviceEvents);
  const ctx: ServiceContext = { db: options.db, clock, config, log: app.log, deviceEvents };

  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  // API answers carry tokens and personal data: no browser or proxy cache may keep them. Set
  // before the handler runs, so errors carry it too; a route may still choose its own.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/v1/')) reply.header('cache-control', 'no-store');
    done();
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'VR Training Console API',
        version: '1.0.0',
        description:
          'Console API (client and /v1/admin calls) and the headset protocol (/v1/headset). ' +
          'Errors are { error, message }.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
  });
  headsetRoutes(app, ctx);
  // Everything a browser loads (the console and its API) in one scope with Helmet's security
  // headers. Headsets are not browsers: outside this scope the headset protocol skips them, which
  // saves 10–16% of a heartbeat's CPU (docs/benchmarks.md).
  await app.register(async (scope) => {
    const browser = scope.withTypeProvider<TypeBoxTypeProvider>();
    await browser.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          'script-src': ["'self'"],
        },
      },
    });
    await browser.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

    authRoutes(browser, ctx);
    for (const routes of publicRouteModules) routes(browser, ctx);
    await browser.register(async (signedIn) => {
      signedIn.addHook('onRequest', requireUser(ctx));
      for (const routes of clientRouteModules) routes(signedIn, ctx);
    });
    await browser.register(async (admin) => {
      admin.addHook('onRequest', requireUser(ctx, 'admin'));
      for (const routes of adminRouteModules) routes(admin, ctx);
    });
    await serveConsole(browser, config.webDistDir);
  });

  if (options.backgroundJobs) startHeadsetBackgroundJobs(app, ctx);
  // Last: nothing after it can fail and leave the listening connection open.
  await deviceEvents.start();
  return app;
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Vite names every file under assets/ by its content hash (a new build is a new name); the
 * precompressed copies carry .br or .gz after it. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+(\.br|\.gz)?$/;

/**
 * Caching of the console's files: a hashed asset never changes, so browsers keep it for a year
 * without asking again; everything else (index.html above all, which names the current assets)
 * is revalidated on every load, so a new build shows at once.
 */
function cacheHeaders(reply: { header(name: string, value: string): unknown }, file: string) {
  reply.header(
    'cache-control',
    HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
}

/** The built console at `/`; any non-API path falls back to index.html for client-side routes. */
async function serveConsole(app: AppInstance, distDir: string) {
  const indexHtml = path.join(distDir, 'index.html');
  const hasConsole = fs.existsSync(indexHtml);
  if (hasConsole) {
    // wildcard: files are looked up on each request, so a rebuilt console is served without a
    // restart; a missing file falls through to the not-found handler below. preCompressed: the
    // build's .br and .gz copies (apps/web/scripts/precompress.mjs) go to clients that accept them.
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      cacheControl: false,
      setHeaders: cacheHeaders,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/v1/') || request.url.startsWith('/docs');
    if (!isApi && hasConsole && request.method === 'GET') {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(apiNotFound(request.method, request.url));
  });
}
