import { lmsLaunchRoutes, lmsRoutes } from './lms/lms.routes.ts';
import { WEBHOOK_EVENT_SCHEMAS, type LiveEvent } from '@vrtc/contract';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import { authRoutes } from './auth/auth.routes.ts';
import { mfaRoutes } from './auth/mfa.routes.ts';
import { requireUser } from './auth/auth.guard.ts';
import { SESSION_COOKIE } from './auth/session-cookie.ts';
import type { AppInstance } from './platform/http/app-types.ts';
import { ConnectionCloser } from './platform/http/connection-closer.ts';
import { useAccessGuards } from './platform/http/routes.ts';
import { DeviceAuthenticator } from './headset/device-auth.ts';
import { requireDevice } from './headset/device.guard.ts';
import { DeviceRefusals } from './headset/device-refusals.ts';
import { DevicePush } from './headset/device-push.ts';
import { systemClock, type Clock } from './platform/service/clock.ts';
import type { Config } from './platform/config/config.ts';
import type { ServiceContext } from './platform/service/context.ts';
import { DatabaseLostError, type Db, type PoolStats } from './platform/database/db.ts';
import { Health, healthRoutes, StorageCheck } from './platform/ops/health.ts';
import { JobMonitor } from './platform/ops/job-monitor.ts';
import { Metrics } from './platform/ops/metrics.ts';
import { LOG_REDACT_PATHS, registerRequestLog, requestIdOf } from './platform/ops/request-log.ts';
import { DeviceCache } from './headset/device-cache.ts';
import { liveEventRoutes } from './events/events.routes.ts';
import { DeviceFigures, type WithFleetCounts } from './devices/device-figures.ts';
import {
  OrganizationAnalyticsAnswers,
  type WithAnalytics,
} from './organizations/organization-analytics.ts';
import { LiveEvents, type WithLive } from './events/live-events.ts';
import type { WithDeviceChanges } from './devices/device-changes.ts';
import { DeviceEvents } from './headset/device-events.ts';
import { LiveStreams } from './events/live-streams.ts';
import { PgListener, type NotificationListener } from './platform/database/pg-listener.ts';
import { registerErrorHandling } from './platform/http/http-errors.ts';
import { serveConsole } from './platform/http/console-files.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { serializerCompiler } from './platform/http/serialization.ts';
import { vrUsersRoutes } from './vr-users/vr-users.routes.ts';
import { organizationsRoutes } from './organizations/organizations.routes.ts';
import { accountsRoutes } from './accounts/accounts.routes.ts';
import { statsRoutes } from './stats/stats.routes.ts';
import {
  OrganizationStatsAnswers,
  type WithOrganizationStats,
} from './stats/organization-stats.ts';
import { enrollmentCodeRoutes, headsetRoutes } from './headset/headset.routes.ts';
import { startHeadsetJobs } from './headset/background-jobs.ts';
import { sightings } from './headset/heartbeat.service.ts';
import type { LastSeenBuffer } from './headset/last-seen.ts';
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
import { auditRoutes } from './audit/audit.routes.ts';
import { recordRefusals } from './audit/refusals.ts';
import { startAuditLinker } from './audit/audit-linker.ts';
import { startAuditPurge } from './audit/audit-purge.ts';
import { integrationsRoutes } from './integrations/integrations.routes.ts';
import { startQualificationNotices } from './qualifications/notices.ts';
import { startQualificationDigest } from './qualifications/digest-job.ts';
import { qualificationsRoutes } from './qualifications/qualifications.routes.ts';
import { ssoAdminRoutes, ssoSignInRoutes } from './sso/sso.routes.ts';
import { scimRoutes, scimTokenRoutes } from './scim/scim.routes.ts';
import { Dispatcher } from './integrations/dispatcher.ts';
import { startIntegrationsUpkeep } from './integrations/upkeep.ts';

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
  /**
   * The embedded database's notifications (DatabaseHandle.notifications), through which access
   * changes end live streams. On PostgreSQL the app opens its own LISTEN connection from
   * databaseUrl instead.
   */
  notifications?: NotificationListener;
  /**
   * The same database for statements that go before others waiting (DatabaseHandle.urgentDb): the
   * dispatcher claims through it. Without it, through `db`.
   */
  urgentDb?: Db;
  /** The database pool's use, for metrics (main.ts passes its DatabaseHandle's). */
  poolStats?: () => PoolStats;
}

/**
 * The one object every route module is handed: the infrastructure (ServiceContext) and what the
 * domains need beside it, each declared by the domain that uses it (docs/ARCHITECTURE.md).
 */
export type AppContext = ServiceContext &
  WithLive &
  WithDeviceChanges &
  WithFleetCounts &
  WithAnalytics &
  WithOrganizationStats;
type RouteModule = (app: AppInstance, ctx: AppContext) => void;

/**
 * The console's routes. Who may call each is its `access` in the contract's route map, enforced by
 * registerRoute wherever the route is registered (useAccessGuards, below): signed links or no
 * token (downloads), any signed-in account on its own organisation, the admin role (/v1/admin).
 */
const consoleRouteModules: RouteModule[] = [
  downloadFileRoutes,
  vrUsersRoutes,
  enrollmentCodeRoutes,
  devicesRoutes,
  sessionsRoutes,
  scenarioTreeRoutes,
  downloadsClientRoutes,
  adminDevicesRoutes,
  contentRoutes,
  accessRoutes,
  downloadsAdminRoutes,
  organizationsRoutes,
  accountsRoutes,
  statsRoutes,
  auditRoutes,
  integrationsRoutes,
  qualificationsRoutes,
  ssoAdminRoutes,
  lmsRoutes,
  scimTokenRoutes,
];

/** Builds the HTTP application without listening, so tests can call `app.inject`. */
export async function buildApp(options: AppOptions): Promise<AppInstance> {
  const { config } = options;
  const app = newFastify(options);
  const { onClosed } = options;
  if (onClosed) app.addHook('onClose', () => onClosed());

  const databaseUrl = options.databaseUrl ?? config.databaseUrl;
  // PostgreSQL: the process's one LISTEN connection, for every channel (platform/database).
  const pgListener = databaseUrl ? new PgListener(databaseUrl, app.log) : undefined;
  const notifications = pgListener ?? options.notifications;
  app.addHook('onClose', async () => notifications?.close());
  const { ctx, live, deviceEvents } = assembleContext(app, options, pgListener);
  const { health, jobs } = registerOperations(app, options, ctx, deviceEvents);

  const deviceAuthenticator = new DeviceAuthenticator(ctx.db, deviceEvents.cache);
  const push = devicePush(app, live, deviceAuthenticator);
  app.setValidatorCompiler(validatorCompiler);
  // Answers without Ajv inside the serialiser (serialization.ts).
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.addHook('onRequest', (request, reply, done) => {
    // API answers carry tokens and personal data: no browser or proxy cache may keep them. Set
    // before the handler runs, so errors carry it too; a route may still choose its own.
    if (request.url.startsWith('/v1/')) reply.header('cache-control', 'no-store');
    // Draining (SIGTERM): each connection ends with the answer it carries, so none is left open
    // for the balancer to send a request into as the process stops listening.
    if (health.draining) reply.header('connection', 'close');
    done();
  });
  await registerApiDocs(app);
  // Every route's guard comes from its access in the route map (registerRoute): one place says who
  // gets in, so no route's protection depends on the scope it is registered in.
  useAccessGuards(app, {
    reader: requireUser(ctx, 'reader'),
    user: requireUser(ctx, 'staff'),
    admin: requireUser(ctx, 'admin'),
    device: requireDevice(deviceAuthenticator, new DeviceRefusals(ctx)),
  });
  // After swagger, so /docs lists the probes with the rest.
  healthRoutes(app, health);
  const lastSeen = keepLastSeen(app, ctx);
  headsetRoutes(app, ctx, lastSeen, push);
  // Called from LMS pages on other sites and by headsets: outside the browser scope (lms/).
  lmsLaunchRoutes(app, ctx);
  // The organisation's directory (SCIM 2.0): a machine with its own token, media type and error
  // form, not a browser and not the console's API (decision 029).
  await app.register(scimRoutes(ctx), { prefix: '/scim/v2' });
  await app.register(browserRoutes(ctx, new LiveStreams(ctx, live, notifications)));

  // Results out (decision 026): every process delivers, woken by the outbox's NOTIFY at commit.
  const dispatcher = new Dispatcher(ctx, notifications, Math.random, options.urgentDb);
  app.addHook('onClose', () => dispatcher.stop());
  if (options.backgroundJobs) {
    startHeadsetJobs(app, ctx, lastSeen, deviceAuthenticator, jobs);
    startAuditLinker(app, ctx, jobs);
    startAuditPurge(app, ctx, jobs);
    startIntegrationsUpkeep(app, ctx, jobs);
    startQualificationNotices(app, ctx, jobs);
    startQualificationDigest(app, ctx, jobs);
    dispatcher.start();
  }
  // Last: nothing after it can fail and leave the listening connection open.
  await notifications?.start();
  return app;
}

/** Fastify as this server runs it: its log, request ids, limits and the proxies it trusts. */
function newFastify(options: AppOptions) {
  const { config } = options;
  return Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: LOG_REDACT_PATHS,
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    // One line per request, written by registerRequestLog, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Always our own UUID; the proxy's or client's X-Request-Id is logged apart (request-log.ts).
    requestIdHeader: false,
    genReqId: requestIdOf,
    // While closing, a request on a kept-alive connection is still answered (the database is
    // open until every connection ends) rather than refused with Fastify's own 503 body; it
    // carries Connection: close (draining, below).
    return503OnClosing: false,
    bodyLimit: 1024 * 1024,
    // The router answers 414 itself, before any route's guard, to a path parameter longer than
    // this: far longer than a URL Node takes (16 KiB of headers), so registerRoute decides instead
    // (MAX_PARAM_LENGTH), after the caller is let in.
    routerOptions: { maxParamLength: 64 * 1024 },
    // A hop count trusts that many proxies in front (Fastify's types only take the function form).
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
  }).withTypeProvider<TypeBoxTypeProvider>();
}

/**
 * The context every route module is handed: the infrastructure, the live events, the device
 * cache's invalidation and the figures shared between requests, each also decorated on the app
 * (tests reach them there).
 */
function assembleContext(
  app: AppInstance,
  options: AppOptions,
  pgListener: PgListener | undefined,
): { ctx: AppContext; live: LiveEvents; deviceEvents: DeviceEvents } {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const deviceEvents = new DeviceEvents(new DeviceCache(() => clock.now().getTime()), pgListener);
  app.decorate('deviceEvents', deviceEvents);
  const live = new LiveEvents(options.db, { listener: pgListener, log: app.log });
  app.addHook('onClose', async () => live.close());
  app.decorate('live', live);
  const deviceFigures = new DeviceFigures(options.db, clock, {
    offlineAfterMs: config.offlineAfterMs,
    maxAgeMs: config.deviceFiguresMaxAgeMs,
  });
  app.decorate('deviceFigures', deviceFigures);
  const organizationAnalytics = new OrganizationAnalyticsAnswers(clock, config.analyticsMaxAgeMs);
  app.decorate('organizationAnalytics', organizationAnalytics);
  const organizationStats = new OrganizationStatsAnswers(clock, config.analyticsMaxAgeMs);
  app.decorate('organizationStats', organizationStats);
  // Shared figures are dropped by the changes they count: this process's as they are published,
  // other processes' as they are heard.
  const heard = (event: LiveEvent) => {
    deviceFigures.heard(event);
    organizationAnalytics.heard(event);
    organizationStats.heard(event);
  };
  live.subscribe(heard);
  const ctx: AppContext = {
    db: options.db,
    clock,
    config,
    log: app.log,
    deviceEvents,
    live: {
      publish(event) {
        heard(event);
        live.publish(event);
      },
    },
    deviceFigures,
    organizationAnalytics,
    organizationStats,
  };
  return { ctx, live, deviceEvents };
}

/**
 * Operations: metrics (scraped on METRICS_PORT, main.ts), /healthz and /readyz, and one log line
 * per request. The request log's hooks come first, so they see every route.
 */
function registerOperations(
  app: AppInstance,
  options: AppOptions,
  ctx: AppContext,
  deviceEvents: DeviceEvents,
) {
  const { config } = options;
  const metrics: Metrics = new Metrics({
    db: options.db,
    clock: ctx.clock,
    offlineAfterMs: config.offlineAfterMs,
    log: app.log,
    poolStats: options.poolStats,
    deviceCache: () => deviceEvents.cache,
    notificationsListening: () => deviceEvents.listening,
    lastSeenBuffered: () => app.lastSeen.size,
    pushWaiting: () => app.devicePush.figures.waiting,
    draining: (): boolean => health.draining,
  });
  const jobs = new JobMonitor(metrics);
  const health: Health = new Health({
    db: options.db,
    jobs,
    notificationsListening: () => deviceEvents.listening,
    usesNotifications: Boolean(options.databaseUrl ?? config.databaseUrl),
    storage: new StorageCheck(config.dataDir, () => ctx.clock.now().getTime()),
  });
  app.decorate('metrics', metrics);
  app.decorate('health', health);
  registerRequestLog(app, metrics);
  // Closing (main.ts's signals, a test's app.close()): every answer from then on ends its
  // connection, and no connection left idle keeps close() waiting (connection-closer.ts).
  const connections = new ConnectionCloser(app.server);
  app.addHook('preClose', (done) => {
    health.startDraining();
    connections.closing();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    connections.closed();
    done();
  });
  return { health, jobs };
}

/** The OpenAPI document, served at /docs (the browser scope) and read by tests. */
async function registerApiDocs(app: AppInstance) {
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
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // The console's (decision 025); `__Host-vrtc_session` over https.
          cookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        },
        // What integrations receive (docs/integrations.md): no route answers these.
        schemas: { ...WEBHOOK_EVENT_SCHEMAS },
      },
      security: [{ bearer: [] }],
    },
  });
}

/**
 * The headsets' sightings of this process (decision 002): heartbeats and reports note them in
 * memory, a background job writes them, and what is left is written when the app closes.
 */
function keepLastSeen(app: AppInstance, ctx: AppContext): LastSeenBuffer {
  const lastSeen = sightings(ctx);
  app.decorate('lastSeen', lastSeen);
  app.addHook('onClose', async () => {
    await lastSeen.flush().catch((error: unknown) => {
      // A lost database was reported once already, by the process's fatal handler.
      if (error instanceof DatabaseLostError) return;
      ctx.log.error({ err: error }, 'final flush of last-seen times failed');
    });
  });
  return lastSeen;
}

/**
 * The headsets' push channel (decision 028): woken by the live events every process hears, and
 * answering its held calls before the server stops, so closing never waits for them.
 */
function devicePush(app: AppInstance, live: LiveEvents, devices: DeviceAuthenticator) {
  const push = new DevicePush(devices);
  live.subscribe(push.heard);
  app.decorate('devicePush', push);
  app.addHook('preClose', (done) => {
    push.release();
    done();
  });
  return push;
}

/**
 * Everything a browser loads (the console and its API) in one scope with Helmet's security
 * headers. Headsets are not browsers: outside this scope the headset protocol skips them, which
 * saves 10–16% of a heartbeat's CPU (docs/benchmarks.md).
 */
function browserRoutes(ctx: AppContext, liveStreams: LiveStreams) {
  return async (scope: AppInstance) => {
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
    // The console's sign-in cookie is read here only: headsets send none.
    await browser.register(cookie);
    // Before the routes: every refusal (401, 403) of the console's API is recorded or counted.
    recordRefusals(browser, ctx);

    authRoutes(browser, ctx);
    mfaRoutes(browser, ctx);
    ssoSignInRoutes(browser, ctx);
    for (const routes of consoleRouteModules) routes(browser, ctx);
    liveEventRoutes(browser, liveStreams);
    await serveConsole(browser, ctx.config.webDistDir);
  };
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
